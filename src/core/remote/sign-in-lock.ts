/**
 * Whether a sign-in lock another effectgate left may be taken over (decision 0116). A lock names
 * the process that holds it and when it took it. It is stale when that process is gone, when it
 * is older than the sign-in timeout (no sign-in lasts longer), or when it cannot be read (a
 * crash while writing it). Pure: the caller says what time it is and which processes live.
 */

export interface LockHolder {
  pid: number;
  /** Milliseconds since the epoch when the lock was taken. */
  since: number;
}

/** The holder a lock file names, or undefined when its text is not one. */
export function readLockHolder(text: string): LockHolder | undefined {
  let v: unknown;
  try {
    v = JSON.parse(text);
  } catch {
    return undefined;
  }
  if (typeof v !== "object" || v === null) return undefined;
  const { pid, since } = v as Record<string, unknown>;
  if (typeof pid !== "number" || !Number.isSafeInteger(pid) || pid <= 0) return undefined;
  if (typeof since !== "number" || !Number.isFinite(since)) return undefined;
  return { pid, since };
}

export function lockIsStale(
  holder: LockHolder | undefined,
  o: { now: number; timeoutMs: number; alive: (pid: number) => boolean },
): boolean {
  if (!holder) return true;
  if (o.now - holder.since > o.timeoutMs) return true;
  // A lock from the future (the clock went back) is judged by its holder alone.
  return !o.alive(holder.pid);
}
