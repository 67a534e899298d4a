import { UsageError } from "../core/errors.js";
import { compareToolsDetailed } from "../core/pins/compare.js";
import { buildEntry, diffEntry, type LiveServer } from "../core/pins/entry.js";
import { escapeForTerminal } from "../core/pins/escape.js";
import { formatLockPath, identityFor } from "../core/pins/lock.js";
import { formatReport, reportLines, type ReportLine } from "../core/pins/report.js";
import { checkLockFolder, DEFAULT_LOCK, loadLock, writeLock } from "../config/lock-file.js";
import { probeServer, ProbeError, ProbeInterrupted } from "../relay/process/probe.js";
import { currentProfile } from "../platform/profile.js";
import { envDenier } from "../relay/gates/build-gates.js";
import { readPolicy } from "../config/policy-file.js";
import { serverEnv } from "../relay/process/spawn-server.js";
import { VERSION } from "../version.js";

const HELP = `usage: effectgate approve [--lock FILE] [--diff] [--timeout S] [--name N] [--pin-env A,B] [--policy P] -- CMD [ARGS...]

Starts the server, lists its tools (every page), prompts, resource templates and instructions,
and pins them in the lock (default ./${DEFAULT_LOCK}). With --diff, compares instead of writing:
exit 1 when anything differs or the server has no entry, 0 when unchanged.

  --lock FILE     the lock file (several servers may share one)
  --diff          compare the live server with the lock; write nothing
  --timeout S     seconds to wait for each answer (default 30)
  --name N        the server's identity in the lock (default: its command line)
  --pin-env A,B   pin these environment variable names (never values)
  --policy P      start the server with the environment this policy's env.deny leaves it, as
                  the relay would (default: the shipped policy)
`;

interface Options {
  lock: string;
  diff: boolean;
  timeoutMs: number;
  name: string | undefined;
  pinEnv: string[];
  policy?: string;
  argv: string[];
}

function parse(args: string[]): Options | "help" {
  const o: Options = {
    lock: DEFAULT_LOCK,
    diff: false,
    timeoutMs: 30_000,
    name: undefined,
    pinEnv: [],
    argv: [],
  };
  let i = 0;
  const value = (flag: string, inline: string | undefined): string => {
    if (inline !== undefined) return inline;
    const v = args[++i];
    if (v === undefined || v === "--") throw new UsageError(`${flag}: expected a value, got nothing`);
    return v;
  };
  for (; i < args.length; i++) {
    const a = args[i]!;
    if (a === "--") {
      o.argv = args.slice(i + 1);
      break;
    }
    const eq = a.indexOf("=");
    const flag = a.startsWith("--") && eq > 0 ? a.slice(0, eq) : a;
    const inline = a.startsWith("--") && eq > 0 ? a.slice(eq + 1) : undefined;
    switch (flag) {
      case "--help":
      case "-h":
        return "help";
      case "--diff":
        o.diff = true;
        break;
      case "--lock":
        o.lock = value(flag, inline);
        break;
      case "--name":
        o.name = value(flag, inline);
        break;
      case "--policy":
        o.policy = value(flag, inline);
        break;
      case "--pin-env":
        o.pinEnv = value(flag, inline)
          .split(",")
          .map((s) => s.trim())
          .filter(Boolean);
        break;
      case "--timeout": {
        const v = value(flag, inline);
        const s = Number(v);
        if (!Number.isFinite(s) || s <= 0)
          throw new UsageError(`--timeout: expected a positive number of seconds, got ${JSON.stringify(v)}`);
        o.timeoutMs = s * 1000;
        break;
      }
      default:
        throw new UsageError(
          `approve: unknown option ${JSON.stringify(a)}; the server command goes after --`,
        );
    }
  }
  if (o.argv.length === 0)
    throw new UsageError(
      "approve: expected the server command after --, got none (effectgate approve -- CMD [ARGS...])",
    );
  return o;
}

const out = (line: string): void => void process.stdout.write(`${line}\n`);

export async function run(args: string[]): Promise<number> {
  const o = parse(args);
  if (o === "help") {
    process.stdout.write(HELP);
    return 0;
  }
  // --diff reads the lock like the relay does (a hand edit is exit 78); approving replaces an
  // edited entry after showing it, which is how the error message tells users to fix it.
  const { lock, edited } = loadLock(o.lock, { mustExist: false, allowEdited: !o.diff });
  // Say that the lock cannot be written before starting the server, not after.
  if (!o.diff) checkLockFolder(o.lock);
  const identity = identityFor(o.name, o.argv);
  if (identity === "__proto__")
    throw new UsageError('--name: expected a name other than "__proto__", got "__proto__"');
  const where = formatLockPath(["servers", identity]);

  let stderrTail = "";
  let probed;
  try {
    probed = await probeServer(o.argv, {
      timeoutMs: o.timeoutMs,
      env: probeEnv(o.policy),
      clientVersion: VERSION,
      onStderr: (t) => void (stderrTail = (stderrTail + t).slice(-4000)),
    });
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
    envNames: o.pinEnv,
    instructions: probed.instructions,
    tools: probed.tools,
    prompts: probed.prompts,
    resourceTemplates: probed.resourceTemplates,
  };
  const info = probed.serverInfo as { name?: unknown; version?: unknown } | null;
  out(
    `probed ${escapeForTerminal(identity)}: ${escapeForTerminal(`${String(info?.name ?? "?")} ${String(info?.version ?? "")}`.trim())}, ` +
      `protocol ${escapeForTerminal(probed.protocolVersion)}, ${probed.tools.length} tools` +
      (probed.prompts ? `, ${probed.prompts.length} prompts` : "") +
      (probed.resourceTemplates ? `, ${probed.resourceTemplates.length} resource templates` : ""),
  );

  const old = Object.hasOwn(lock.servers, identity) ? lock.servers[identity] : undefined;
  let lines: ReportLine[];
  if (old === undefined) {
    lines = reportLines([], compareToolsDetailed(new Map(), probed.tools));
  } else {
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
        `${o.lock}: no entry for ${escapeForTerminal(where)}; run: effectgate approve${o.lock === DEFAULT_LOCK ? "" : ` --lock ${o.lock}`}${o.name ? ` --name ${o.name}` : ""} -- ${escapeForTerminal(o.argv.join(" "))}`,
      );
      for (const l of formatReport(lines)) out(l);
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
  if (lines.length > 0) {
    out(
      old === undefined
        ? `${o.lock}: new entry ${escapeForTerminal(where)}:`
        : `${o.lock}: ${escapeForTerminal(where)}: approving ${lines.length} change${lines.length === 1 ? "" : "s"}:`,
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
