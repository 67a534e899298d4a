/**
 * Builds the judges for one relay session from the command-line choices: the policy (the
 * shipped default when none is named), the level (flag, else the policy's `mode:`, else
 * observe — the flag wins in both directions), and the pin gate when a lock is given.
 *
 * Two steps, so that the relay can start the server between them (docs/decisions/0107): first
 * everything that can be wrong (readGateSettings: the policy, the lock), which throws
 * ConfigError (exit 78) before the server starts; then the judges (buildGate), which cannot fail
 * on a user's file and load while the server starts.
 */
import { machineRemotes } from "../../platform/configured-remotes.js";
import { join } from "node:path";
import type { Gate } from "../../core/gate/gate.js";
import type { Level } from "../../core/types.js";
import type { PlatformProfile } from "../../core/paths/api.js";
import type { LoadedPolicy } from "../../core/policy/compile.js";
import { GlobSet } from "../../core/policy/globs.js";
import { currentProfile } from "../../platform/profile.js";
import { policyFor } from "../../config/policy-for.js";
import { loadedShellKit, loadShellKit } from "../../config/shell-kit.js";
import { runsCommands } from "../../core/effects/tool-table.js";
import type { HeldRequest, JudgeContext } from "../../core/gate/gate.js";
import type { TaintEvent } from "../../core/gate/session-judge.js";
import type { CompiledPolicy } from "../../core/policy/api.js";
import { OFF_SETTINGS } from "./off-switch.js";
import { openProjectGrants, type ProjectGrantBook } from "./project-grant-book.js";

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

/** What the choices say before any judge exists: enough to start the server. */
export interface GateSettings {
  level: Level;
  from: "flag" | "policy" | "default" | "off";
  policy: { source: string; sha256: string } | null;
  lock: string | null;
  /** Whether a variable must be removed from the server's environment (policy `env.deny` globs). */
  envDeny: (name: string) => boolean;
  /** Absent when every check is off. */
  read?: {
    profile: PlatformProfile;
    compiled: LoadedPolicy;
    pins: Gate | undefined;
    /** The tool names the lock pins for this server (the name gate's exceptions). */
    pinned: Set<string> | undefined;
    /** Where the pin gate sends a rug-pull's taint: the judge, once buildGate has made it. */
    rugPull: { to?: (event: TaintEvent) => void };
    /** "Always in this project": `.effectgate/allow.yaml` below the cwd (decision 0134). */
    projectGrants: ProjectGrantBook;
    /** One line each for entries of another project root, which are ignored. */
    grantNotices: string[];
  };
}

export interface BuiltGate extends GateSettings {
  gate: Gate | undefined;
}

/** The policy and the lock, read and checked. Throws ConfigError for either. */
export async function readGateSettings(opts: BuildGateOptions): Promise<GateSettings> {
  await Promise.resolve();
  // EFFECTGATE_OFF was read before this point; with it no policy or lock file is even opened.
  if (opts.off) return OFF_SETTINGS;

  const profile = currentProfile(opts.cwd);
  const compiled = await policyFor(opts.policy, profile);
  const level: Level = opts.level ?? compiled.mode ?? "observe";
  const from = opts.level ? "flag" : compiled.mode ? "policy" : "default";
  let pins: Gate | undefined;
  let pinned: Set<string> | undefined;
  const rugPull: { to?: (event: TaintEvent) => void } = {};
  // A grant file that cannot be read stops the start like a bad policy (exit 78).
  const { book: projectGrants, notices: grantNotices } = await openProjectGrants(opts.cwd);
  if (opts.lock !== undefined) {
    // Pins, the lock's reader and its schema load only for a relay that checks a lock.
    const [{ createPinGate, pinnedNames }, { identityFor }] = await Promise.all([
      import("./pin-gate.js"),
      import("../../core/pins/identity.js"),
    ]);
    // A remote server without --name is pinned under its URL (decision 0102).
    const identity =
      opts.remoteUrl !== undefined && (opts.name === undefined || opts.name === "")
        ? opts.remoteUrl
        : identityFor(opts.name, opts.serverArgv);
    pins = createPinGate({
      lockPath: opts.lock,
      identity,
      level,
      serverArgv: opts.serverArgv,
      ...(opts.remoteUrl !== undefined ? { url: opts.remoteUrl } : {}),
      // What the server showed the model differs from what was approved: untrusted text.
      onRugPull: (event) => rugPull.to?.(event),
    });
    pinned = pinnedNames(opts.lock, identity);
  }
  return {
    level,
    from,
    policy: { source: compiled.source, sha256: compiled.sha256 },
    lock: opts.lock ?? null,
    envDeny: envDenier(compiled.envDeny),
    read: { profile, compiled, pins, pinned, rugPull, projectGrants, grantNotices },
  };
}

/** The gate chain: pins first, then the policy; none when every check is off. */
export async function buildGate(opts: BuildGateOptions, given?: GateSettings): Promise<BuiltGate> {
  const settings = given ?? (await readGateSettings(opts));
  if (settings.read === undefined) return { ...settings, gate: undefined };
  const { profile, compiled: policy, pins, pinned, rugPull, projectGrants } = settings.read;
  const [
    { createSessionJudge },
    { clientProcessKey },
    { effectgateHome },
    { createFsResolver },
    { serverFolders },
    { ownFiles },
    { chainGates },
    { createNameGate },
    { createPolicyGate },
    { fileTaintStore, sweepExpiredTaint, withSharedTaint },
    { identityFor },
  ] = await Promise.all([
    import("../../core/judge/session.js"),
    import("../../platform/client-process.js"),
    import("../../platform/home.js"),
    import("../../platform/resolver.js"),
    import("../../platform/server-folders.js"),
    import("./own-files.js"),
    import("./gate-chain.js"),
    import("./name-gate.js"),
    import("./policy-gate.js"),
    import("./shared-taint.js"),
    import("../../core/pins/identity.js"),
  ]);
  const gates: Gate[] = pins === undefined ? [] : [pins];
  gates.push(
    createNameGate({
      level: settings.level,
      ...(opts.lock === undefined || pinned === undefined ? {} : { pinned, lockPath: opts.lock }),
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
      grantFile: projectGrants.file,
    },
    resolver,
  );
  const ownJudge = createSessionJudge(policy, {
    profile,
    resolver,
    remotes: machineRemotes(profile.home, profile.cwd),
    own,
    bases: serverFolders(opts.serverArgv, profile),
    ...(opts.name === undefined ? {} : { server: opts.name }),
    shell: loadedShellKit,
  });
  // Taint is shared with the other relays of the same client (src/relay/gates/shared-taint.ts).
  const taintDir = join(effectgateHome(), "taint");
  sweepExpiredTaint(taintDir);
  const judge = withSharedTaint(
    ownJudge,
    fileTaintStore(taintDir, () => clientProcessKey()),
    opts.name,
  );
  rugPull.to = (event) => judge.taintWith(event);
  gates.push(
    createPolicyGate({
      judge,
      level: settings.level,
      policySource: policy.source,
      forgetFiles: () => resolver.forget(),
      prepare: shellKitLoader(policy),
      // Grants name the server as pins and out-of-band questions do: --name, else its command.
      projectGrants: {
        book: projectGrants,
        server:
          opts.remoteUrl !== undefined && (opts.name === undefined || opts.name === "")
            ? opts.remoteUrl
            : identityFor(opts.name, opts.serverArgv),
      },
    }),
  );
  return { ...settings, gate: chainGates(gates) };
}

/** `env.deny` holds name globs (`*_TOKEN`), matched without regard to case like every name glob. */
export function envDenier(globs: readonly string[]): (name: string) => boolean {
  if (globs.length === 0) return () => false;
  const set = new GlobSet(globs);
  return (name) => set.first(name) !== undefined;
}

/**
 * Loads the bash grammar and the catalogue before the first exec call is judged, and only then:
 * a relay whose server has no exec tool never pays for them. If they cannot be loaded, commands
 * are judged the old way (every word a path, the exec class action) and the user is told once.
 */
function shellKitLoader(policy: CompiledPolicy): (req: HeldRequest, ctx: JudgeContext) => Promise<void> {
  let said = false;
  return async (req, ctx) => {
    if (loadedShellKit() !== undefined || (req.method !== "tools/call" && req.method !== "prompts/get"))
      return;
    const p = req.params as { name?: unknown } | undefined;
    const name = typeof p?.name === "string" ? p.name : undefined;
    if (name === undefined || !runsCommands(policy, name)) return;
    try {
      await loadShellKit();
    } catch (err) {
      if (said) return;
      said = true;
      ctx.announce(
        `the bash grammar could not be loaded (${err instanceof Error ? err.message : String(err)}); commands are judged word by word, as every word a path`,
      );
    }
  };
}
