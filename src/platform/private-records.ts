/**
 * Small JSON records in owner-only folders under EFFECTGATE_HOME: the questions that wait for
 * `effectgate allow`, the grants it writes, the answers a user trusts. They are how the relay and
 * the `pending` and `allow` commands talk, so a record is believed only when it is a regular
 * file (never a link) this user owns that nobody else can read or write, in a folder likewise.
 * Each is written whole under a temporary name and renamed into place, so a reader never sees
 * half of one.
 */
import * as fs from "node:fs";
import { randomBytes } from "node:crypto";
import { join } from "node:path";
import { checkOwnDir, createPrivateFile, ensurePrivateDir } from "./secure-file.js";

const uid = (): number | undefined =>
  process.platform !== "win32" && typeof process.getuid === "function" ? process.getuid() : undefined;

/**
 * Makes `dir` (and its parents) exist as owner-only folders; returns why it cannot be trusted,
 * or undefined when it can. A folder others could use is tightened to 0700 first.
 */
export function privateFolder(dir: string): string | undefined {
  let t = checkOwnDir(dir);
  if (t.state === "absent") {
    ensurePrivateDir(dir);
    t = checkOwnDir(dir);
  }
  if (t.state === "absent") return "it could not be created";
  return t.state === "untrusted" ? t.why : undefined;
}

/** Writes `value` as `dir/name` (replacing it), owner-only. */
export function writePrivateJson(dir: string, name: string, value: unknown): void {
  const tmp = join(dir, `.${name}.${randomBytes(6).toString("hex")}.tmp`);
  const fd = createPrivateFile(tmp);
  try {
    fs.writeSync(fd, `${JSON.stringify(value, null, 2)}\n`);
  } finally {
    fs.closeSync(fd);
  }
  try {
    fs.renameSync(tmp, join(dir, name));
  } catch (err) {
    fs.rmSync(tmp, { force: true });
    throw err;
  }
}

/** The record at `path` when it is one this user wrote for itself; undefined otherwise. */
export function readPrivateJson(path: string): unknown {
  try {
    const st = fs.lstatSync(path);
    const me = uid();
    if (!st.isFile()) return undefined;
    if (me !== undefined && (st.uid !== me || (st.mode & 0o077) !== 0)) return undefined;
    return JSON.parse(fs.readFileSync(path, "utf8")) as unknown;
  } catch {
    return undefined;
  }
}

/** The names of the records in `dir` (`*.json`, not the temporary ones). */
export function recordNames(dir: string): string[] {
  try {
    return fs.readdirSync(dir).filter((n) => n.endsWith(".json") && !n.startsWith("."));
  } catch {
    return [];
  }
}

/** Removes `path`; true when this call removed it (so a one-use grant is used by one relay only). */
export function removeRecord(path: string): boolean {
  try {
    fs.unlinkSync(path);
    return true;
  } catch {
    return false;
  }
}
