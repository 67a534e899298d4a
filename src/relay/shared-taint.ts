import { closeSync, existsSync, readdirSync, statSync, unlinkSync, writeSync } from "node:fs";
import { join } from "node:path";
import type { SessionJudgeApi, TaintEvent } from "../core/session-judge.js";
import { createPrivateFile, ensurePrivateDir } from "../platform/secure-file.js";

/**
 * Taint shared between the relays of one client. An agent that fetched a page through one
 * server and then runs a command through another is one session from the attacker's point of
 * view, so a taint marker is written where every relay started by the same client process sees
 * it. Scope: same client process (pid and, on Linux, start time). Expiry: SHARED_TAINT_TTL_MS
 * after the marker was written. Sharing can only make verdicts stricter, never looser.
 */
export const SHARED_TAINT_TTL_MS = 12 * 60 * 60 * 1000;

export interface SharedTaintStore {
  /** Whether another relay of this client marked the session tainted (and it has not expired). */
  isTainted(): boolean;
  mark(event: TaintEvent, server: string | undefined): void;
}

export function fileTaintStore(
  dir: string,
  clientKey: string,
  now: () => number = Date.now,
): SharedTaintStore {
  const marker = join(dir, `${clientKey}.json`);
  let marked = false;
  return {
    isTainted() {
      if (!existsSync(marker)) return false;
      try {
        return now() - statSync(marker).mtimeMs < SHARED_TAINT_TTL_MS;
      } catch {
        return false;
      }
    },
    mark(event, server) {
      if (marked) return;
      marked = true;
      try {
        ensurePrivateDir(dir);
        const fd = createPrivateFile(marker);
        try {
          writeSync(
            fd,
            JSON.stringify({ ...event, server: server ?? null, at: new Date(now()).toISOString() }) + "\n",
          );
        } finally {
          closeSync(fd);
        }
      } catch (err) {
        // EEXIST: another relay marked it first, which is the same fact.
        if ((err as NodeJS.ErrnoException).code !== "EEXIST") throw err;
      }
    },
  };
}

/** Remove markers past their expiry, so the folder does not grow without bound. */
export function sweepExpiredTaint(dir: string, now: number = Date.now()): void {
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return;
  }
  for (const name of names) {
    const path = join(dir, name);
    try {
      if (now - statSync(path).mtimeMs >= SHARED_TAINT_TTL_MS) unlinkSync(path);
    } catch {
      // another relay swept it
    }
  }
}

/** A judge that also reads and writes the client's shared taint marker. */
export function withSharedTaint(
  judge: SessionJudgeApi & { taint(): void },
  store: SharedTaintStore,
  server: string | undefined,
): SessionJudgeApi & { taint(): void } {
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
      if (first) {
        try {
          store.mark(first, server);
        } catch {
          // Sharing is a bonus on top of this relay's own taint, which already holds.
        }
      }
      return events;
    },
    taint: () => judge.taint(),
  };
}
