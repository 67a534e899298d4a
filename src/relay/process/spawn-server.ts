/**
 * Starts the real server: an argv array, never a shell (Windows batch shims excepted, run through
 * cmd.exe with every argument escaped, see core/process/command-resolve.ts). stdin, stdout and stderr are
 * pipes. A server that cannot be started is a CannotStartError (exit 127) with one line of reason.
 *
 * The relay asks for a process group of its own on POSIX, and signals the whole group; on
 * Windows only the server process itself is signalled (its children may outlive it).
 */
import { spawn, type ChildProcessByStdio } from "node:child_process";
import { accessSync, constants, statSync } from "node:fs";
import type { Readable, Writable } from "node:stream";
import { resolveCommand } from "../../core/process/command-resolve.js";
import { CannotStartError } from "../../core/errors.js";
import { currentPlatform } from "../../platform/profile.js";
import type { Platform } from "../../core/types.js";

export type ServerProcess = ChildProcessByStdio<Writable, Readable, Readable>;

/** Reads a variable the way the platform does (case-insensitively on Windows). */
function envValue(env: NodeJS.ProcessEnv, name: string, platform: Platform): string | undefined {
  if (platform !== "win32") return env[name];
  const key = Object.keys(env).find((k) => k.toUpperCase() === name.toUpperCase());
  return key === undefined ? undefined : env[key];
}

/** The server's environment: ours, minus the names the caller denies. Returns the names removed. */
export function serverEnv(
  env: NodeJS.ProcessEnv,
  deny: readonly string[] | ((name: string) => boolean) | undefined,
): { env: NodeJS.ProcessEnv; removed: string[] } {
  if (deny === undefined) return { env, removed: [] };
  const denied = typeof deny === "function" ? deny : (name: string) => deny.includes(name);
  const out: NodeJS.ProcessEnv = {};
  const removed: string[] = [];
  for (const [name, value] of Object.entries(env)) {
    if (denied(name)) removed.push(name);
    else out[name] = value;
  }
  return { env: out, removed };
}

function isRunnableFile(platform: Platform): (p: string) => boolean {
  return (p) => {
    try {
      if (!statSync(p).isFile()) return false;
      if (platform !== "win32") accessSync(p, constants.X_OK);
      return true;
    } catch {
      return false;
    }
  };
}

export async function spawnServer(
  argv: readonly string[],
  env: NodeJS.ProcessEnv,
  cwd: string,
  /** POSIX: lead a process group of its own, to be stopped whole with signalServer (the relay). */
  ownGroup = false,
): Promise<ServerProcess> {
  const [command, ...args] = argv;
  if (command === undefined) throw new CannotStartError("no server command given after --");
  const platform = currentPlatform();
  const resolved = resolveCommand({
    platform,
    command,
    args,
    path: envValue(env, "PATH", platform),
    pathext: envValue(env, "PATHEXT", platform),
    comspec: envValue(env, "ComSpec", platform),
    cwd,
    isFile: isRunnableFile(platform),
  });
  if (!resolved.ok) throw new CannotStartError(`cannot start the server: ${resolved.reason}`);
  const child = spawn(resolved.file, resolved.args, {
    cwd,
    env,
    stdio: ["pipe", "pipe", "pipe"],
    windowsVerbatimArguments: resolved.windowsVerbatimArguments,
    windowsHide: true,
    // Its own process group, so that the lifecycle signals reach everything the server starts
    // (a shell's children too) and nothing outlives effectgate. Stdio stays piped.
    detached: ownGroup && platform !== "win32",
    // The server sees the name it was started by, as it would without effectgate.
    ...(resolved.windowsVerbatimArguments ? {} : { argv0: command }),
  });
  await new Promise<void>((resolve, reject) => {
    const onError = (err: NodeJS.ErrnoException): void => {
      child.off("spawn", onSpawn);
      reject(
        new CannotStartError(
          `cannot start the server ${command}: ${err.code ?? ""} ${err.message}`.replace(/\s+/g, " ").trim(),
        ),
      );
    };
    const onSpawn = (): void => {
      child.off("error", onError);
      resolve();
    };
    child.once("error", onError);
    child.once("spawn", onSpawn);
  });
  return child;
}

/** A server started for a relay, with what was kept from its environment and how it ended. */
export interface StartedServer {
  child: ServerProcess;
  removed: string[];
  /** Listened for from the start: a server may exit before the session is ready for it. */
  exit: Promise<[number | null, NodeJS.Signals | null]>;
  /** Errors the process raised before the session listened (the session logs them). */
  early: Error[];
  /**
   * Signals the relay received before the session listened for them (forwardSignals): the
   * session acts on them as soon as it starts, so that nothing outlives a relay stopped early.
   * `stopHolding` removes the handlers that collected them.
   */
  signals: NodeJS.Signals[];
  stopHolding: () => void;
}

/** The signals a relay passes on to its server's process group. */
export const FORWARDED_SIGNALS: readonly NodeJS.Signals[] = ["SIGINT", "SIGTERM", "SIGHUP"];

/** Starts the server with our environment less the denied names; rejects with CannotStartError. */
export async function startServer(o: {
  serverArgv: readonly string[];
  env: NodeJS.ProcessEnv;
  envDeny?: readonly string[] | ((name: string) => boolean);
  cwd: string;
  forwardSignals?: boolean;
}): Promise<StartedServer> {
  const { env, removed } = serverEnv(o.env, o.envDeny);
  const child = await spawnServer(o.serverArgv, env, o.cwd, true);
  const exit = new Promise<[number | null, NodeJS.Signals | null]>((resolve) =>
    child.once("exit", (code, signal) => resolve([code, signal])),
  );
  const early: Error[] = [];
  child.on("error", (err) => early.push(err));
  // A server that exits before the session reads its pipes: Node then resumes every untouched
  // stdio stream and its bytes are thrown away. A "readable" listener that reads nothing keeps
  // them buffered (and the pipe's back-pressure on) until the session reads (takeServerPipes).
  child.stdout.on("readable", keepBuffered);
  child.stderr.on("readable", keepBuffered);
  const signals: NodeJS.Signals[] = [];
  const hold = (sig: NodeJS.Signals): void => void signals.push(sig);
  if (o.forwardSignals) for (const sig of FORWARDED_SIGNALS) process.on(sig, hold);
  const stopHolding = (): void => {
    for (const sig of FORWARDED_SIGNALS) process.off(sig, hold);
  };
  return { child, removed, exit, early, signals, stopHolding };
}

function keepBuffered(): void {}

/** Called by the session just before it listens for "data" on the server's pipes. */
export function takeServerPipes(child: ServerProcess): void {
  child.stdout.off("readable", keepBuffered);
  child.stderr.off("readable", keepBuffered);
}

/**
 * Sends `sig` to the process group of a server spawned with `ownGroup` (POSIX), else to the
 * server alone. Returns whether any process received it. The group outlives its leader while
 * any member lives, so this also reaches what the server left running after it exited.
 */
export function signalServer(child: ServerProcess, sig: NodeJS.Signals | 0): boolean {
  const pid = child.pid;
  if (pid !== undefined && currentPlatform() !== "win32") {
    try {
      process.kill(-pid, sig);
      return true;
    } catch {
      // ESRCH: no member left. Fall back to the process itself, as on Windows.
    }
  }
  return child.kill(sig);
}

/**
 * The server has exited; what it started may still run in its group (POSIX). SIGTERM to the
 * group now, SIGKILL if any member is left after `graceMs`, so nothing outlives the caller.
 * `onKill` hears each signal actually sent (the relay logs them).
 */
export async function stopLeftovers(
  child: ServerProcess,
  graceMs: number,
  onKill: (sig: "SIGTERM" | "SIGKILL") => void = () => undefined,
): Promise<void> {
  if (!signalServer(child, "SIGTERM")) return;
  onKill("SIGTERM");
  const gone = (): boolean => !signalServer(child, 0); // 0: only asks whether any is left
  for (let waited = 0; waited < graceMs && !gone(); waited += 50) await new Promise((r) => setTimeout(r, 50));
  if (gone()) return;
  onKill("SIGKILL");
  signalServer(child, "SIGKILL");
}
