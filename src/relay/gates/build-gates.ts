/**
 * Builds the judges for one relay session from the command-line choices: the policy (the
 * shipped default when none is named), the level (flag, else the policy's `mode:`, else
 * observe — the flag wins in both directions), and the pin gate when a lock is given.
 * Any problem with the policy or the lock throws ConfigError (exit 78) before the server starts.
 */
import type { Gate } from "../../core/gate/gate.js";
import { identityFor } from "../../core/pins/lock.js";
import type { Level } from "../../core/types.js";
import { createSessionJudge } from "../../core/judge/session.js";
import { GlobSet } from "../../core/policy/globs.js";
import { currentProfile } from "../../platform/profile.js";
import { clientProcessKey } from "../../platform/client-process.js";
import { effectgateHome } from "../../platform/home.js";
import { createFsResolver } from "../../platform/resolver.js";
import { serverFolders } from "../../platform/server-folders.js";
import { ownFiles } from "./own-files.js";
import { join } from "node:path";
import { chainGates } from "./gate-chain.js";
import { createNameGate } from "./name-gate.js";
import { createPinGate, pinnedNames } from "./pin-gate.js";
import { readPolicy } from "../../config/policy-file.js";
import { createPolicyGate } from "./policy-gate.js";
import { fileTaintStore, sweepExpiredTaint, withSharedTaint } from "./shared-taint.js";

export interface BuildGateOptions {
  policy?: string;
  level?: Level;
  lock?: string;
  /** `--log-dir`: protected like every other file the relay uses. */
  logDir?: string;
  name?: string;
  /** A remote server (`--url`): its URL as the pin identity spells it; serverArgv is then empty. */
  remoteUrl?: string;
  serverArgv: string[];
  /** The server's working directory: relative paths in calls are resolved against it. */
  cwd: string;
  off: boolean;
}

export interface BuiltGate {
  gate: Gate | undefined;
  level: Level;
  from: "flag" | "policy" | "default" | "off";
  policy: { source: string; sha256: string } | null;
  lock: string | null;
  /** Whether a variable must be removed from the server's environment (policy `env.deny` globs). */
  envDeny: (name: string) => boolean;
}

export async function buildGate(opts: BuildGateOptions): Promise<BuiltGate> {
  await Promise.resolve();
  // EFFECTGATE_OFF was read before this point; with it no policy or lock file is even opened.
  if (opts.off)
    return { gate: undefined, level: "observe", from: "off", policy: null, lock: null, envDeny: () => false };

  const profile = currentProfile(opts.cwd);
  const policy = readPolicy(opts.policy, profile);
  const level: Level = opts.level ?? policy.mode ?? "observe";
  const from = opts.level ? "flag" : policy.mode ? "policy" : "default";

  const gates: Gate[] = [];
  if (opts.lock !== undefined) {
    gates.push(
      createPinGate({
        lockPath: opts.lock,
        identity:
          opts.remoteUrl !== undefined && (opts.name === undefined || opts.name === "")
            ? opts.remoteUrl
            : identityFor(opts.name, opts.serverArgv),
        level,
        serverArgv: opts.serverArgv,
        ...(opts.remoteUrl !== undefined ? { url: opts.remoteUrl } : {}),
      }),
    );
  }
  const identity = identityFor(opts.name, opts.serverArgv);
  gates.push(
    createNameGate({
      level,
      ...(opts.lock === undefined ? {} : { pinned: pinnedNames(opts.lock, identity), lockPath: opts.lock }),
      approve: `effectgate approve${opts.lock === undefined ? "" : ` --lock ${opts.lock}`}${opts.name === undefined ? "" : ` --name ${opts.name}`} -- ${opts.serverArgv.join(" ")}`,
    }),
  );
  const resolver = createFsResolver();
  // The files this relay uses are never read or changed through the server it guards (0068).
  const own = ownFiles(
    {
      ...(opts.policy !== undefined ? { policy: opts.policy } : {}),
      ...(opts.lock !== undefined ? { lock: opts.lock } : {}),
      ...(opts.logDir !== undefined ? { logDir: opts.logDir } : {}),
      env: process.env,
      cwd: opts.cwd,
    },
    resolver,
  );
  const ownJudge = createSessionJudge(policy, {
    profile,
    resolver,
    own,
    bases: serverFolders(opts.serverArgv, profile),
    ...(opts.name === undefined ? {} : { server: opts.name }),
  });
  // Taint is shared with the other relays of the same client (src/relay/gates/shared-taint.ts).
  const taintDir = join(effectgateHome(), "taint");
  sweepExpiredTaint(taintDir);
  const judge = withSharedTaint(ownJudge, fileTaintStore(taintDir, clientProcessKey()), opts.name);
  gates.push(
    createPolicyGate({ judge, level, policySource: policy.source, forgetFiles: () => resolver.forget() }),
  );

  return {
    gate: chainGates(gates),
    level,
    from,
    policy: { source: policy.source, sha256: policy.sha256 },
    lock: opts.lock ?? null,
    envDeny: envDenier(policy.envDeny),
  };
}

/** `env.deny` holds name globs (`*_TOKEN`), matched without regard to case like every name glob. */
export function envDenier(globs: readonly string[]): (name: string) => boolean {
  if (globs.length === 0) return () => false;
  const set = new GlobSet(globs);
  return (name) => set.first(name) !== undefined;
}
