// Retention: session logs hold everything the agents read, secrets included, so they are not
// kept for ever. At start-up, once its server runs, the relay deletes the session logs older
// than EFFECTGATE_KEEP_DAYS days (default 30; 0 keeps them all) from its own log folder
// (decision 0097). It only ever deletes regular files named as effectgate names its logs,
// directly in a folder that is really a folder (not a link) and private to this user, so a
// link or a shared folder can never turn pruning against other files.
import { lstat, readdir, unlink } from "node:fs/promises";
import { join } from "node:path";
import { parseLogFileName, stampTime } from "./naming.js";

const KEEP_VAR = "EFFECTGATE_KEEP_DAYS";
const DEFAULT_KEEP_DAYS = 30;
const DAY_MS = 86_400_000;

export type KeepSetting = { ok: true; days: number | null; from: string } | { ok: false; problem: string };

/** How long logs are kept, from the environment: days, or null for "for ever". */
export function keepSetting(env: NodeJS.ProcessEnv = process.env): KeepSetting {
  const raw = env[KEEP_VAR];
  if (raw === undefined || raw === "")
    return { ok: true, days: DEFAULT_KEEP_DAYS, from: `the default; set ${KEEP_VAR} to change it` };
  if (!/^\d{1,6}$/.test(raw))
    return {
      ok: false,
      problem: `${KEEP_VAR}: expected a whole number of days (0 keeps every log), got ${JSON.stringify(raw)}; no log is deleted`,
    };
  const days = Number(raw);
  return { ok: true, days: days === 0 ? null : days, from: `${KEEP_VAR}=${raw}` };
}

export interface Pruned {
  removed: number;
  bytes: number;
  /** Why nothing was looked at (the folder is a link, shared, or not there). */
  skipped?: string;
}

/**
 * Deletes the session logs in `dir` whose session started, and whose file was last written,
 * more than `days` days before `now`. Everything is asynchronous, so the relay's own work goes
 * on while it runs. A file another relay deleted first is not an error.
 */
export async function pruneSessions(dir: string, days: number, now: number): Promise<Pruned> {
  const cutoff = now - days * DAY_MS;
  let st;
  try {
    st = await lstat(dir);
  } catch (err) {
    return {
      removed: 0,
      bytes: 0,
      skipped: `the folder cannot be looked at (${(err as NodeJS.ErrnoException).code ?? "error"})`,
    };
  }
  if (st.isSymbolicLink()) return { removed: 0, bytes: 0, skipped: "the folder is a link" };
  if (!st.isDirectory()) return { removed: 0, bytes: 0, skipped: "not a folder" };
  if (process.platform !== "win32") {
    const uid = process.getuid?.();
    if (uid !== undefined && st.uid !== uid)
      return { removed: 0, bytes: 0, skipped: "the folder belongs to another user" };
    if ((st.mode & 0o077) !== 0)
      return { removed: 0, bytes: 0, skipped: "the folder is open to other users" };
  }
  const out: Pruned = { removed: 0, bytes: 0 };
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    // A Dirent describes the entry itself: a link is a link here, never what it points to.
    if (!entry.isFile()) continue;
    const name = parseLogFileName(entry.name);
    if (name === null || !(stampTime(name.stamp) < cutoff)) continue;
    const file = join(dir, entry.name);
    try {
      const f = await lstat(file);
      if (!f.isFile() || !(f.mtimeMs < cutoff)) continue;
      await unlink(file);
      out.removed += 1;
      out.bytes += f.size;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== "ENOENT") throw err;
    }
  }
  return out;
}
