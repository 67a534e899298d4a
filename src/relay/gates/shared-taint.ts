import * as fs from "node:fs";
import { join } from "node:path";
import type { SessionJudgeApi, TaintEvent } from "../../core/gate/session-judge.js";
import { checkOwnDir, createPrivateFile, ensurePrivateDir } from "../../platform/secure-file.js";

/**
 * Taint shared between the relays of one client. An agent that fetched a page through one
 * server and then runs a command through another is one session from the attacker's point of
 * view, so a taint marker is written where every relay started by the same client process sees
 * it. Scope: same client process (pid and, on Linux, start time). Expiry: SHARED_TAINT_TTL_MS
 * after the last untrusted content any relay of the client took in (the marker's mtime, which
 * a relay that keeps tainting refreshes). Sharing can only make verdicts stricter, never looser.
 */
export const SHARED_TAINT_TTL_MS = 12 * 60 * 60 * 1000;

/**
 * A relay that keeps taking in untrusted content rewrites its marker when the marker is older
 * than this, not on every tainting answer: a fetch server answers often, and the expiry is
 * hours long (docs/decisions/0064-unreadable-inputs-and-shared-taint-freshness.md).
 */
export const SHARED_TAINT_REFRESH_MS = 60 * 1000;

export interface SharedTaintStore {
  /** Whether another relay of this client marked the session tainted (and it has not expired). */
  isTainted(): boolean;
  mark(event: TaintEvent, server: string | undefined): void;
}

export interface TaintStoreOptions {
  /** Where the one line about a folder that is not private goes (default: stderr). */
  warn?: (line: string) => void;
  /** Who we are (tests pretend to be another user); default process.getuid(). */
  uid?: number;
  platform?: NodeJS.Platform;
}

const { O_WRONLY, O_TRUNC } = fs.constants;
const NOFOLLOW = fs.constants.O_NOFOLLOW ?? 0;

export function fileTaintStore(
  dir: string,
  /** The client's name (platform/client-process.ts); a function is asked once, when first needed. */
  clientKey: string | (() => string),
  now: () => number = Date.now,
  opts: TaintStoreOptions = {},
): SharedTaintStore {
  // Finding the client may take a `ps` call: it waits until taint is first read or written.
  let markerPath: string | undefined;
  const marker = (): string =>
    (markerPath ??= join(dir, `${typeof clientKey === "string" ? clientKey : clientKey()}.json`));
  const warn = opts.warn ?? ((line: string) => void process.stderr.write(`${line}\n`));
  const platform = opts.platform ?? process.platform;
  const uid =
    opts.uid ?? (platform !== "win32" && typeof process.getuid === "function" ? process.getuid() : undefined);
  /** A marker this user wrote: a regular file it owns, never a link or another user's file. */
  const ours = (st: fs.Stats): boolean => st.isFile() && (uid === undefined || st.uid === uid);

  // The folder is judged once per relay, when there is first something to read or write:
  // another user's folder, or one others could write, could have a marker deleted (shared
  // taint silently off) or a link planted at a marker's name.
  let folder: "unknown" | "trusted" | "untrusted" = "unknown";
  const trusted = (create: boolean): boolean => {
    if (folder !== "unknown") return folder === "trusted";
    let t = checkOwnDir(dir, { platform, ...(uid !== undefined ? { uid } : {}) });
    if (t.state === "absent") {
      if (!create) return false;
      ensurePrivateDir(dir, { platform });
      t = checkOwnDir(dir, { platform, ...(uid !== undefined ? { uid } : {}) });
    }
    if (t.state === "absent") return false;
    if (t.state === "untrusted") {
      folder = "untrusted";
      warn(
        `effectgate: taint folder ${dir} is ${t.why}; expected a folder only you can use (0700): taint is not shared with this client's other relays for this run, each keeps its own`,
      );
      return false;
    }
    if (t.state === "tightened")
      warn(
        `effectgate: taint folder ${dir} was open to others (mode ${t.was}); expected owner-only 0700: made it 0700, so no one else can remove or plant taint markers`,
      );
    folder = "trusted";
    return true;
  };

  const stat = (): fs.Stats | undefined => {
    try {
      return fs.lstatSync(marker(), { throwIfNoEntry: false });
    } catch {
      return undefined;
    }
  };

  /** Write the marker with this taint and set its mtime, the expiry clock, to now. */
  const write = (event: TaintEvent, server: string | undefined, st: fs.Stats | undefined): void => {
    const t = now();
    const text = JSON.stringify({ ...event, server: server ?? null, at: new Date(t).toISOString() }) + "\n";
    // Something that is not our marker at its name (a link, another user's file, left from
    // before the folder was made private) is removed: the folder is ours.
    if (st && !ours(st)) fs.unlinkSync(marker());
    let fd: number;
    try {
      fd =
        st && ours(st) ? fs.openSync(marker(), O_WRONLY | O_TRUNC | NOFOLLOW) : createPrivateFile(marker());
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code;
      // EEXIST: another relay of this client wrote it just now, which is the same fact.
      if (code === "EEXIST") return;
      // ENOENT: swept between the look and the open; write it anew.
      if (code !== "ENOENT") throw err;
      fd = createPrivateFile(marker());
    }
    try {
      fs.writeSync(fd, text);
      fs.futimesSync(fd, t / 1000, t / 1000);
    } finally {
      fs.closeSync(fd);
    }
  };

  return {
    isTainted() {
      if (folder === "untrusted") return false;
      // One lstat per judged call when no marker is there (the common case).
      const st = stat();
      if (!st || !trusted(false) || !ours(st)) return false;
      return now() - st.mtimeMs < SHARED_TAINT_TTL_MS;
    },
    mark(event, server) {
      if (!trusted(true)) return;
      const st = stat();
      // Fresh enough: the expiry is hours away. An aged or missing marker is rewritten.
      if (st && ours(st) && now() - st.mtimeMs < SHARED_TAINT_REFRESH_MS) return;
      write(event, server, st);
    },
  };
}

/** Remove markers past their expiry, so the folder does not grow without bound. */
export function sweepExpiredTaint(dir: string, now: number = Date.now()): void {
  let names: string[];
  try {
    names = fs.readdirSync(dir);
  } catch {
    return;
  }
  // Only what this user wrote is swept: the folder may be another user's (then it is not used
  // for sharing either), and a relay running as root must not delete their files.
  const me = typeof process.getuid === "function" ? process.getuid() : undefined;
  for (const name of names) {
    const path = join(dir, name);
    try {
      // lstat: a link's target is not ours to judge or delete through.
      const st = fs.lstatSync(path);
      if ((me === undefined || st.uid === me) && now - st.mtimeMs >= SHARED_TAINT_TTL_MS) fs.unlinkSync(path);
    } catch {
      // another relay swept it
    }
  }
}

/** A judge that also reads and writes the client's shared taint marker. */
export function withSharedTaint(
  judge: SessionJudgeApi,
  store: SharedTaintStore,
  server: string | undefined,
): SessionJudgeApi & { taintWith(event: TaintEvent): void } {
  const share = (event: TaintEvent): void => {
    try {
      store.mark(event, server);
    } catch {
      // Sharing is a bonus on top of this relay's own taint, which already holds.
    }
  };
  // Adopted taint shows in each decision's `tainted` and reason; it needs no event of its own.
  const adopt = () => {
    if (!judge.tainted && store.isTainted()) judge.taint();
  };
  return {
    get tainted() {
      adopt();
      return judge.tainted;
    },
    judge(method, params, problem) {
      adopt();
      return judge.judge(method, params, problem);
    },
    observe(request, response, scan) {
      const events = judge.observe(request, response, scan);
      const first = events[0];
      if (first) share(first);
      return events;
    },
    taint: () => judge.taint(),
    /** Taint from outside the judge's own reading (a rug-pull), shared with the client's relays. */
    taintWith(event: TaintEvent) {
      judge.taint();
      share(event);
    },
  };
}
