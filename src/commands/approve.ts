import { UsageError } from "../core/errors.js";
import { compareToolsDetailed } from "../core/pins/compare.js";
import { buildEntry, diffEntry, type LiveServer } from "../core/pins/entry.js";
import { escapeForTerminal } from "../core/pins/escape.js";
import { identityFor } from "../core/pins/identity.js";
import { formatLockPath } from "../core/pins/lock.js";
import { lookAlikeGroups, lookAlikeSentence } from "../core/pins/lookalike.js";
import { formatFirstApproval, formatReport, reportLines, type ReportLine } from "../core/pins/report.js";
import { checkLockFolder, DEFAULT_LOCK, loadLock, writeLock } from "../config/lock-file.js";
import { probeEndpoint, probeServer } from "../relay/process/probe.js";
import { ProbeError, ProbeInterrupted } from "../relay/process/probe-connection.js";
import { currentProfile } from "../platform/profile.js";
import { envDenier } from "../relay/gates/build-gates.js";
import { readPolicy } from "../config/policy-file.js";
import { serverEnv } from "../relay/process/spawn-server.js";
import { VERSION } from "../version.js";
import type { CommandDeclaration } from "./cli/declaration.js";
import { policyOption } from "./cli/values.js";
import { remoteArgs, remoteOptions, urlOption, type RemoteArgs } from "./cli/remote-options.js";

interface Options {
  lock: string;
  diff: boolean;
  timeoutMs: number;
  name: string | undefined;
  pinEnv: string[];
  policy?: string;
  argv: string[];
  /** `--url`: a remote server, probed through the relay's HTTP bridge. */
  remote?: RemoteArgs;
}

export const command: CommandDeclaration = {
  description:
    "Start the server, list its tools (every page), prompts, resources, resource templates and " +
    "instructions, and pin them in the lock. The relay's --lock then refuses what changed. " +
    "With --diff, compare instead of writing: exit 1 when anything differs or the server has " +
    "no entry, 0 when unchanged.",
  options: [
    {
      flags: "--lock <file>",
      meaning: "the lock file (several servers may share one)",
      default: `./${DEFAULT_LOCK}`,
      value: DEFAULT_LOCK,
    },
    { flags: "--diff", meaning: "compare the live server with the lock; write nothing", default: "off" },
    {
      flags: "--timeout <seconds>",
      meaning: "how long to wait for each answer of the server",
      default: "30",
      value: 30_000,
      parse: (text) => {
        const s = Number(text);
        if (!Number.isFinite(s) || s <= 0)
          throw new UsageError(`expected a positive number of seconds, got ${JSON.stringify(text)}`);
        return s * 1000;
      },
    },
    {
      flags: "--name <name>",
      meaning: "the server's identity in the lock (give the relay the same --name)",
      default: "its command line",
    },
    {
      flags: "--pin-env <names>",
      meaning: "pin these environment variable names, comma-separated (never their values)",
      default: "none",
      value: [],
      parse: (text) =>
        text
          .split(",")
          .map((s) => s.trim())
          .filter(Boolean),
    },
    policyOption(
      "start the server with the environment this policy's env.deny leaves it, as the relay would",
    ),
    {
      ...urlOption,
      meaning: "a remote server instead of a command: probed as the relay's --url bridge does",
    },
    ...remoteOptions,
  ],
  serverCommand: {
    example: "effectgate approve -- npx -y @modelcontextprotocol/server-filesystem ~/work",
    unlessOption: "url",
  },
  examples: [
    {
      command: "effectgate approve --name fs -- npx -y @modelcontextprotocol/server-filesystem ~/work",
      says: "pin a server's tools in ./effectgate.lock",
    },
    {
      command: "effectgate approve --diff --name fs -- npx -y @modelcontextprotocol/server-filesystem ~/work",
      says: "review what changed since, writing nothing (exit 1 on a change)",
    },
  ],
  run: (parsed) => {
    // --timeout is read in seconds and kept in milliseconds.
    const o = parsed.options;
    const remote = remoteArgs(o);
    return approve({
      lock: o["lock"] as string,
      diff: o["diff"] === true,
      timeoutMs: o["timeout"] as number,
      name: o["name"] as string | undefined,
      pinEnv: o["pinEnv"] as string[],
      ...(o["policy"] !== undefined ? { policy: o["policy"] as string } : {}),
      argv: parsed.server,
      ...(remote ? { remote } : {}),
    });
  },
};

const out = (line: string): void => void process.stdout.write(`${line}\n`);

async function approve(o: Options): Promise<number> {
  // --diff reads the lock like the relay does (a hand edit is exit 78); approving replaces an
  // edited entry after showing it, which is how the error message tells users to fix it.
  const { lock, edited } = loadLock(o.lock, { mustExist: false, allowEdited: !o.diff });
  // Say that the lock cannot be written before starting the server, not after.
  if (!o.diff) checkLockFolder(o.lock);
  const remote = o.remote
    ? (await import("../relay/remote/start.js")).prepareRemote(o.remote, process.env)
    : undefined;
  const identity =
    remote && (o.name === undefined || o.name === "") ? remote.server.identity : identityFor(o.name, o.argv);
  const target = remote ? `--url ${remote.server.identity}` : `-- ${o.argv.join(" ")}`;
  if (identity === "__proto__")
    throw new UsageError('--name: expected a name other than "__proto__", got "__proto__"');
  const where = formatLockPath(["servers", identity]);

  let stderrTail = "";
  let probed;
  try {
    const probeOptions = {
      timeoutMs: o.timeoutMs,
      clientVersion: VERSION,
      onStderr: (t: string) => void (stderrTail = (stderrTail + t).slice(-4000)),
    };
    probed = remote
      ? await probeEndpoint(await remote.start(), probeOptions)
      : await probeServer(o.argv, { ...probeOptions, env: probeEnv(o.policy) });
  } catch (err) {
    if (!(err instanceof ProbeError)) throw err;
    // The message may quote the server (its error text, a cursor): untrusted like the rest.
    process.stderr.write(`effectgate approve: ${escapeForTerminal(err.message)}\n`);
    if (stderrTail.trim() !== "")
      process.stderr.write(
        `the server's last stderr output:\n${escapeForTerminal(stderrTail).replace(/\\n/g, "\n")}\n`,
      );
    return err instanceof ProbeInterrupted ? err.exitCode : 1;
  }
  const live: LiveServer = {
    argv: o.argv,
    ...(remote ? { url: remote.server.identity } : {}),
    envNames: o.pinEnv,
    instructions: probed.instructions,
    tools: probed.tools,
    prompts: probed.prompts,
    resourceTemplates: probed.resourceTemplates,
    resources: probed.resources,
  };
  const info = probed.serverInfo as { name?: unknown; version?: unknown } | null;
  out(
    `probed ${escapeForTerminal(identity)}: ${escapeForTerminal(`${String(info?.name ?? "?")} ${String(info?.version ?? "")}`.trim())}, ` +
      `protocol ${escapeForTerminal(probed.protocolVersion)}, ${probed.tools.length} tools` +
      (probed.prompts ? `, ${probed.prompts.length} prompts` : "") +
      (probed.resourceTemplates ? `, ${probed.resourceTemplates.length} resource templates` : "") +
      (probed.resources ? `, ${probed.resources.length} resources` : ""),
  );

  // Look-alike names are flagged on every run, with their code points: they print as one name,
  // and the relay refuses a call to either unless the lock pins it by that exact name.
  const names = probed.tools.flatMap((t) =>
    t !== null && typeof t === "object" && typeof (t as Record<string, unknown>)["name"] === "string"
      ? [(t as Record<string, unknown>)["name"] as string]
      : [],
  );
  for (const group of lookAlikeGroups(names))
    for (const l of formatReport([
      {
        text: `${lookAlikeSentence(group)}: check each is the tool you mean before approving (approved names are pinned exactly)`,
        severity: "high",
      },
    ]))
      out(`warning:${l}`);

  const old = Object.hasOwn(lock.servers, identity) ? lock.servers[identity] : undefined;
  let lines: ReportLine[] = [];
  // What a first approval pins, to read (no severities: nothing was approved to compare with).
  const listing = old === undefined ? formatFirstApproval(compareToolsDetailed(new Map(), probed.tools)) : [];
  if (old !== undefined) {
    const d = diffEntry(old, live);
    const tampered: ReportLine[] = edited
      .filter((p) => p.at[1] === identity)
      .map((p) => ({
        text: `${formatLockPath(p.at)}: ${p.field} does not match its values (the lock was edited by hand)`,
        severity: "high",
      }));
    lines = [...tampered, ...reportLines(d.server, d.tools)];
  }
  for (const p of edited.filter((p) => p.at[1] !== identity)) {
    process.stderr.write(
      `effectgate approve: warning: ${o.lock}: ${escapeForTerminal(formatLockPath(p.at))}: ${p.field} does not match (edited by hand); the relay will refuse this lock until that server is approved again\n`,
    );
  }

  if (o.diff) {
    if (old === undefined) {
      out(
        `${o.lock}: no entry for ${escapeForTerminal(where)}; run: effectgate approve${o.lock === DEFAULT_LOCK ? "" : ` --lock ${o.lock}`}${o.name ? ` --name ${o.name}` : ""} ${escapeForTerminal(target)}`,
      );
      for (const l of listing) out(l);
      return 1;
    }
    if (lines.length === 0) {
      out(`${o.lock}: ${escapeForTerminal(where)}: unchanged (${Object.keys(old.tools).length} tools)`);
      return 0;
    }
    out(
      `${o.lock}: ${escapeForTerminal(where)}: ${lines.length} change${lines.length === 1 ? "" : "s"} since approval:`,
    );
    for (const l of formatReport(lines)) out(l);
    return 1;
  }

  const built = buildEntry(live);
  if (!built.ok) {
    process.stderr.write(
      `effectgate approve: cannot pin ${escapeForTerminal(identity)}, nothing written:\n${built.problems.map((p) => `  ${escapeForTerminal(p)}`).join("\n")}\n`,
    );
    return 1;
  }
  if (old !== undefined && lines.length === 0) {
    out(`${o.lock}: ${escapeForTerminal(where)}: no changes`);
    return 0;
  }
  if (old === undefined) {
    out(`${o.lock}: new entry ${escapeForTerminal(where)}; its tools, as the model will read them:`);
    for (const l of listing) out(l);
  } else if (lines.length > 0) {
    out(
      `${o.lock}: ${escapeForTerminal(where)}: approving ${lines.length} change${lines.length === 1 ? "" : "s"}:`,
    );
    for (const l of formatReport(lines)) out(l);
  }
  lock.servers = Object.fromEntries([
    ...Object.entries(lock.servers).filter(([k]) => k !== identity),
    [identity, built.entry],
  ]);
  writeLock(o.lock, lock);
  out(`wrote ${o.lock}: ${escapeForTerminal(where)} (${Object.keys(built.entry.tools).length} tools)`);
  return 0;
}

/** The environment the relay would give this server: ours, less the policy's env.deny names. */
function probeEnv(policy: string | undefined): NodeJS.ProcessEnv {
  const compiled = readPolicy(policy, currentProfile(process.cwd()));
  return serverEnv(process.env, envDenier(compiled.envDeny)).env;
}
