// `effectgate check`: explain how one call would be judged, without a server or a network.
import { resolve } from "node:path";
import { Command, CommanderError } from "commander";
import { EXIT, UsageError } from "../core/errors.js";
import { createSessionJudge } from "../core/judge/session.js";
import type { JudgedEffect } from "../core/judge/judge-effect.js";
import { outcomeFor, parseLevel } from "../core/gate/levels.js";
import type { PathResolver, PlatformProfile } from "../core/paths/api.js";
import { parseStrictJson } from "../core/json/strict-json.js";
import { LEVELS, type Level, type Platform } from "../core/types.js";
import { readPolicy } from "../config/policy-file.js";
import { currentPlatform, currentProfile } from "../platform/profile.js";
import { createFsResolver } from "../platform/resolver.js";

const SYNTHETIC_HOME: Record<Platform, string> = {
  linux: "/home/user",
  darwin: "/Users/user",
  win32: "C:\\Users\\user",
};

/** Facts of this machine, or a synthetic machine of another platform with an identity resolver. */
function profileFor(
  platform: Platform,
  home: string | undefined,
  cwd: string | undefined,
): { profile: PlatformProfile; resolver: PathResolver } {
  if (platform === currentPlatform()) {
    const host = currentProfile(cwd === undefined ? undefined : resolve(cwd));
    if (home === undefined) return { profile: host, resolver: createFsResolver() };
    // --home stands for the user's home everywhere: in `~` and in $HOME / %USERPROFILE%.
    const env = { ...host.env, [platform === "win32" ? "USERPROFILE" : "HOME"]: home };
    return { profile: { ...host, home, env }, resolver: createFsResolver() };
  }
  const h = home ?? SYNTHETIC_HOME[platform];
  const env: Record<string, string> =
    platform === "win32"
      ? {
          USERPROFILE: h,
          APPDATA: `${h}\\AppData\\Roaming`,
          LOCALAPPDATA: `${h}\\AppData\\Local`,
          HOMEDRIVE: h.slice(0, 2),
          HOMEPATH: h.slice(2),
        }
      : { HOME: h };
  return { profile: { platform, home: h, env, cwd: cwd ?? h }, resolver: { realpath: () => undefined } };
}

/** `/…` on linux and darwin; `C:\…`, `C:/…` or `\\server\share\…` on win32. */
function isAbsoluteOn(platform: Platform, path: string): boolean {
  if (platform !== "win32") return path.startsWith("/");
  return /^[A-Za-z]:[\\/]|^[\\/]{2}[^\\/]+[\\/][^\\/]+/.test(path);
}

function describeEffect(item: JudgedEffect): string {
  const e = item.effect;
  const lines = [`  ${e.operation} ${e.kind}  at ${e.at}`, `    spelled    ${JSON.stringify(e.spelled)}`];
  if (item.lexical !== undefined) lines.push(`    canonical  ${item.lexical}`);
  if (item.resolved !== undefined && item.resolved !== item.lexical)
    lines.push(`    resolved   ${item.resolved}`);
  if (item.physical !== undefined) lines.push(`    physical   ${item.physical}`);
  lines.push(`    rule       ${item.rule ?? "(none)"}`);
  lines.push(`    verdict    ${item.verdict}${item.unjudgeable ? " (cannot be judged)" : ""}`);
  return lines.join("\n");
}

export async function run(args: string[]): Promise<number> {
  const program = new Command("effectgate check")
    .description("explain how one call would be judged (no server is started)")
    .option("--policy <policy>", "default or a policy file", "default")
    .option("--level <level>", "observe, enforce or strict (default: the policy's mode, else observe)")
    .option("--tainted", "judge as if the session had taken in untrusted content", false)
    .option("--platform <platform>", "linux, darwin or win32 (another platform uses a synthetic machine)")
    .option("--cwd <dir>", "the server's working directory")
    .option("--home <dir>", "the home folder")
    .option("--method <method>", "tools/call, prompts/get or resources/read", "tools/call")
    .option("--tool <name>", "the tool (or prompt) name")
    .option(
      "--args <json>",
      'the call\'s arguments as a JSON object (for resources/read: {"uri": ...})',
      "{}",
    )
    .exitOverride()
    .configureOutput({ writeOut: (s) => process.stdout.write(s), writeErr: () => undefined })
    .allowExcessArguments(false);
  try {
    program.parse(args, { from: "user" });
  } catch (err) {
    if (err instanceof CommanderError) {
      if (err.code === "commander.helpDisplayed" || err.code === "commander.version") return EXIT.ok;
      throw new UsageError(`check: ${err.message.replace(/^error: /, "")}`);
    }
    throw err;
  }
  const o = program.opts<{
    policy: string;
    level?: string;
    tainted: boolean;
    platform?: string;
    cwd?: string;
    home?: string;
    method: string;
    tool?: string;
    args: string;
  }>();

  const platform = o.platform ?? currentPlatform();
  if (platform !== "linux" && platform !== "darwin" && platform !== "win32")
    throw new UsageError(
      `check: --platform: expected linux, darwin or win32, got ${JSON.stringify(platform)}`,
    );
  const level = o.level === undefined ? undefined : parseLevel(o.level);
  if (o.level !== undefined && level === undefined)
    throw new UsageError(
      `check: --level: expected observe, enforce or strict, got ${JSON.stringify(o.level)}`,
    );
  if (!["tools/call", "prompts/get", "resources/read"].includes(o.method))
    throw new UsageError(
      `check: --method: expected tools/call, prompts/get or resources/read, got ${JSON.stringify(o.method)}`,
    );
  if (o.method !== "resources/read" && (o.tool === undefined || o.tool === ""))
    throw new UsageError(
      `check: --tool: expected a tool name, got ${o.tool === undefined ? "none" : "an empty one"}`,
    );
  // Checked before the policy is loaded: a relative home would otherwise be blamed on the
  // policy's `~/…` patterns, one line each, and an empty one would make `~` the root.
  if (o.home !== undefined && !isAbsoluteOn(platform, o.home))
    throw new UsageError(
      `check: --home: expected an absolute path (for ${platform}), got ${JSON.stringify(o.home)}`,
    );

  // Duplicate keys are not a usage error: the relay would refuse such a call, and check says so.
  let parsedArgs: unknown;
  let problem: string | undefined;
  const strict = parseStrictJson(o.args);
  if (strict.ok) parsedArgs = strict.value;
  else {
    try {
      parsedArgs = JSON.parse(o.args) as unknown;
      problem = `arguments: ${strict.error}`;
    } catch {
      throw new UsageError(
        `check: --args: expected a JSON object, got ${strict.error}: ${o.args.length > 60 ? `${o.args.slice(0, 57)}...` : o.args}`,
      );
    }
  }
  if (parsedArgs === null || typeof parsedArgs !== "object" || Array.isArray(parsedArgs)) {
    throw new UsageError(
      `check: --args: expected a JSON object, got ${Array.isArray(parsedArgs) ? "a list" : JSON.stringify(parsedArgs)}`,
    );
  }

  const { profile, resolver } = profileFor(platform, o.home, o.cwd);
  const policy = readPolicy(o.policy, profile);
  const judge = createSessionJudge(policy, { profile, resolver }, { tainted: o.tainted });
  const params = o.method === "resources/read" ? parsedArgs : { name: o.tool, arguments: parsedArgs };
  const { subject, decision, items } = judge.explain(o.method, params, problem);
  const inForce: Level = level ?? policy.mode ?? "observe";

  const out: string[] = [];
  // A call without its subject (resources/read with no uri) is named by its method alone.
  out.push(subject === o.method ? o.method : `${o.method} ${subject}`);
  out.push(
    `policy ${policy.source} (sha256 ${policy.sha256.slice(0, 12)}), platform ${platform}, home ${profile.home}, cwd ${profile.cwd}, tainted ${decision.tainted ? "yes" : "no"}`,
  );
  // Patterns whose anchor names a variable this machine does not set match nothing here; a
  // policy shared across platforms should be checked for them (docs/policy.md).
  for (const p of policy.inert) out.push(`inert on ${platform}: paths.${p.list} ${p.text} (${p.why})`);
  out.push(items.length === 0 ? "effects: none" : "effects:");
  for (const item of items) out.push(describeEffect(item));
  out.push(`verdict: ${decision.verdict}${decision.unjudgeable !== undefined ? " (cannot be judged)" : ""}`);
  out.push(`rule: ${decision.rule ?? "(none)"}`);
  out.push(`reason: ${decision.reason}`);
  out.push(
    `outcome: ${LEVELS.map((l) => `${l} ${outcomeFor(l, decision.verdict)}`).join(", ")}; level in force: ${inForce} (${outcomeFor(inForce, decision.verdict)})`,
  );
  process.stdout.write(`${out.join("\n")}\n`);
  return decision.verdict === "allow" ? EXIT.ok : decision.verdict === "confirm" ? EXIT.finding : EXIT.deny;
}
