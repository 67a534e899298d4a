// `effectgate check`: explain how one call would be judged, without a server or a network.
import { resolve } from "node:path";
import { EXIT, UsageError } from "../core/errors.js";
import { loadedShellKit, loadShellKit } from "../config/shell-kit.js";
import { runsCommands } from "../core/effects/tool-table.js";
import { commandLines } from "../core/judge/command-lines.js";
import { escapeUntrusted } from "../core/text/terminal-text.js";
import { createSessionJudge } from "../core/judge/session.js";
import type { JudgedEffect } from "../core/judge/judge-effect.js";
import { outcomeFor } from "../core/gate/levels.js";
import type { PathResolver, PlatformProfile } from "../core/paths/api.js";
import { readClientFrame } from "../core/wire/client-frame.js";
import { LEVELS, type Level, type Platform } from "../core/types.js";
import { policyFor } from "../config/policy-for.js";
import { describeDestination } from "../core/net/destination-text.js";
import { hostClass } from "../core/net/host.js";
import { machineRemotes } from "../platform/configured-remotes.js";
import { currentPlatform, currentProfile } from "../platform/profile.js";
import { createFsResolver } from "../platform/resolver.js";
import { ownFiles } from "../relay/gates/own-files.js";
import { grantFileOf } from "../relay/gates/project-grant-book.js";
import type { CommandDeclaration } from "./cli/declaration.js";
import { levelOption, policyOption } from "./cli/values.js";

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
  const d = e.destination;
  if (d !== undefined) {
    const cls = d.host === undefined ? "" : ` (${hostClass(d.host)})`;
    lines.push(`    sends to   ${describeDestination(d)}${cls}`);
  }
  lines.push(`    rule       ${item.rule ?? "(none)"}`);
  lines.push(`    verdict    ${item.verdict}${item.unjudgeable ? " (cannot be judged)" : ""}`);
  return lines.join("\n");
}

interface Options {
  policy: string;
  level?: Level;
  tainted: boolean;
  platform?: Platform;
  cwd?: string;
  home?: string;
  lock?: string;
  logDir?: string;
  method: string;
  tool?: string;
  args: string;
}

/** The line a client would write for this call; `args` is the user's text, kept as written. */
function callFrame(method: string, tool: string | undefined, args: string): string {
  const head = `{"jsonrpc":"2.0","id":1,"method":${JSON.stringify(method)},"params":`;
  if (method === "resources/read") return `${head}${args}}`;
  return `${head}{"name":${JSON.stringify(tool)},"arguments":${args}}}`;
}

const METHODS = ["tools/call", "prompts/get", "resources/read"];

export const command: CommandDeclaration = {
  description:
    "Explain how one call would be judged: its effects, the canonical paths, the rule that " +
    "matched and the outcome at each level. No server is started and nothing is sent. Exit 0 " +
    "allow, 1 confirm, 3 deny, 2 bad words, 78 a policy that cannot be used.",
  options: [
    policyOption("default or a policy file"),
    levelOption("the policy's mode, else observe"),
    {
      flags: "--tainted",
      meaning: "judge as if the session had taken in untrusted content",
      default: "off",
    },
    {
      flags: "--platform <platform>",
      meaning: "linux, darwin or win32; another platform than this one uses a synthetic machine",
      default: "this machine's",
      parse: (text) => {
        if (text !== "linux" && text !== "darwin" && text !== "win32")
          throw new UsageError(`expected linux, darwin or win32, got ${JSON.stringify(text)}`);
        return text;
      },
    },
    { flags: "--cwd <dir>", meaning: "the server's working directory", default: "the current folder" },
    { flags: "--home <dir>", meaning: "the home folder (~)", default: "this user's home" },
    {
      flags: "--lock <file>",
      meaning: "the pin lock a relay would use: protected like the policy",
      default: "none",
    },
    {
      flags: "--log-dir <dir>",
      meaning: "the session log folder a relay would use: protected",
      default: "sessions/ under EFFECTGATE_HOME",
    },
    {
      flags: "--method <method>",
      meaning: "tools/call, prompts/get or resources/read",
      default: "tools/call",
      value: "tools/call",
      parse: (text) => {
        if (!METHODS.includes(text))
          throw new UsageError(
            `expected tools/call, prompts/get or resources/read, got ${JSON.stringify(text)}`,
          );
        return text;
      },
    },
    {
      flags: "--tool <name>",
      meaning: "the tool (or prompt) name",
      default: "none; needed unless --method resources/read",
    },
    {
      flags: "--args <json>",
      meaning: 'the call\'s arguments as a JSON object (for resources/read: {"uri": ...})',
      default: "{}",
      value: "{}",
    },
  ],
  examples: [
    {
      command: `effectgate check --tool write_file --args '{"path":"~/.bashrc"}'`,
      says: "how the shipped policy judges a write to ~/.bashrc",
    },
    {
      command: `effectgate check --policy team.yaml --level enforce --tool run --args '{"command":"rm -rf build"}'`,
      says: "a command under your own policy, at enforce",
    },
    {
      command: `effectgate check --platform win32 --tool read_file --args '{"path":"C:/Users/user/.ssh/id_rsa"}'`,
      says: "a Windows path, on a synthetic Windows machine",
    },
  ],
  run: (parsed) => check(parsed.options as unknown as Options),
};

async function check(o: Options): Promise<number> {
  const platform = o.platform ?? currentPlatform();
  const level = o.level;
  if (o.method !== "resources/read" && o.tool === undefined)
    throw new UsageError("--tool: expected a tool name, got none");
  // Checked before the policy is loaded: a relative home would otherwise be blamed on the
  // policy's `~/…` patterns, one line each, and an empty one would make `~` the root.
  if (o.home !== undefined && !isAbsoluteOn(platform, o.home))
    throw new UsageError(
      `--home: expected an absolute path (for ${platform}), got ${JSON.stringify(o.home)}`,
    );

  // Text that is not a JSON object is a usage error. Duplicate keys are not: the relay would
  // refuse such a call, and check says so.
  let parsedArgs: unknown;
  try {
    parsedArgs = JSON.parse(o.args) as unknown;
  } catch (err) {
    throw new UsageError(
      `--args: expected a JSON object, got not valid JSON (${(err as Error).message}): ${o.args.length > 60 ? `${o.args.slice(0, 57)}...` : o.args}`,
    );
  }
  if (parsedArgs === null || typeof parsedArgs !== "object" || Array.isArray(parsedArgs)) {
    throw new UsageError(
      `--args: expected a JSON object, got ${Array.isArray(parsedArgs) ? "a list" : JSON.stringify(parsedArgs)}`,
    );
  }
  // The call is read as the relay reads the frame a client would send for it
  // (src/core/wire/client-frame.ts), so its problem is the relay's.
  const [call] = readClientFrame(callFrame(o.method, o.tool, o.args)).calls;
  if (call === undefined) throw new Error(`check: the frame built for ${o.method} holds no judged call`);
  const params = call.params;
  const problem = call.problem;

  const { profile, resolver } = profileFor(platform, o.home, o.cwd);
  const policy = await policyFor(o.policy, profile);
  // The files a relay with these options would use, on this machine (decision 0068).
  const own =
    platform === currentPlatform()
      ? ownFiles(
          {
            policy: o.policy,
            ...(o.lock !== undefined ? { lock: o.lock } : {}),
            ...(o.logDir !== undefined ? { logDir: o.logDir } : {}),
            env: o.home === undefined ? process.env : { ...process.env, HOME: o.home },
            cwd: process.cwd(),
            // The relay's project grants live below the server's working directory (0134).
            grantFile: grantFileOf(profile.cwd),
          },
          resolver,
        )
      : [];
  // The grammar (and the catalogue's YAML) only for a tool that runs commands: check starts fast.
  if (o.tool !== undefined && runsCommands(policy, o.tool)) await loadShellKit();
  const judge = createSessionJudge(
    policy,
    {
      profile,
      resolver,
      own,
      shell: loadedShellKit,
      // `git push origin`, `ssh alias`: the remote's host, read as the relay reads it (decision 0128).
      ...(platform === currentPlatform() ? { remotes: machineRemotes(profile.home, profile.cwd) } : {}),
    },
    { tainted: o.tainted },
  );
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
  for (const f of own)
    out.push(`own file (always denied${f.readable ? " to writes" : ""}): ${f.what} ${f.path}`);
  const commands = commandLines(items);
  if (commands.length > 0) {
    out.push("commands:");
    for (const line of commands) out.push(`  ${escapeUntrusted(line.replaceAll("\n", "\\n"), "transcript")}`);
  }
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
