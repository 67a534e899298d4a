import * as fs from "node:fs";
import { dirname } from "node:path";
import { applyOwnerOnlyAcl } from "./windows-acl.js";

/**
 * Owner-only folders and files for data that must not leak (session logs hold tool arguments
 * and results verbatim). POSIX: folder 0700, file 0600 created with O_EXCL so an existing file
 * or link is never reused. Windows: a protected owner-only DACL through windows-acl.ts.
 *
 * All file-system calls go through `FileIo` so tests can inject failures that root (which
 * ignores modes) cannot provoke on a real disk.
 */

export interface FileIo {
  mkdirSync(path: string, mode: number): void;
  statSync(path: string): { isDirectory(): boolean; mode: number; uid: number };
  chmodSync(path: string, mode: number): void;
  openSync(path: string, flags: number, mode: number): number;
  fchmodSync(fd: number, mode: number): void;
  writeSync(fd: number, buf: Buffer, offset: number, length: number): number;
  ftruncateSync(fd: number, length: number): void;
  closeSync(fd: number): void;
  unlinkSync(path: string): void;
}

export const realFileIo: FileIo = {
  mkdirSync: (p, mode) => void fs.mkdirSync(p, { recursive: true, mode }),
  statSync: (p) => fs.statSync(p),
  chmodSync: (p, mode) => fs.chmodSync(p, mode),
  openSync: (p, flags, mode) => fs.openSync(p, flags, mode),
  fchmodSync: (fd, mode) => fs.fchmodSync(fd, mode),
  writeSync: (fd, buf, offset, length) => fs.writeSync(fd, buf, offset, length),
  ftruncateSync: (fd, length) => fs.ftruncateSync(fd, length),
  closeSync: (fd) => fs.closeSync(fd),
  unlinkSync: (p) => fs.unlinkSync(p),
};

export interface SecureOptions {
  io?: FileIo;
  /** Defaults to process.platform; tests pass "linux". */
  platform?: NodeJS.Platform;
}

function errCode(err: unknown): string | undefined {
  return (err as NodeJS.ErrnoException | null)?.code;
}

/**
 * Make sure `dir` exists as an owner-only folder. A folder we create gets 0700 (or the Windows
 * DACL). An existing folder is left as the user set it up — changing modes behind their back
 * could break a deliberate setup — but a group- or world-accessible one, or one owned by another
 * user, comes back as a warning for the caller to print. Throws when the folder cannot exist.
 */
export function ensurePrivateDir(
  dir: string,
  opts: SecureOptions = {},
): { created: boolean; warning: string | null } {
  const io = opts.io ?? realFileIo;
  const platform = opts.platform ?? process.platform;
  let st: ReturnType<FileIo["statSync"]> | null = null;
  try {
    st = io.statSync(dir);
  } catch (err) {
    if (errCode(err) !== "ENOENT") throw err;
  }
  if (st) {
    if (!st.isDirectory()) throw new Error(`${dir}: expected a folder, got a file`);
    if (platform === "win32") return { created: false, warning: null };
    const loose = st.mode & 0o077;
    const uid = typeof process.getuid === "function" ? process.getuid() : st.uid;
    if (loose || st.uid !== uid) {
      const mode = (st.mode & 0o777).toString(8).padStart(4, "0");
      const who = st.uid !== uid ? `owned by uid ${st.uid}, not ${uid}` : `mode ${mode}`;
      return {
        created: false,
        warning: `effectgate: log folder ${dir} is readable by others (${who}); expected owner-only 0700: run chmod 700 ${JSON.stringify(dir)}`,
      };
    }
    return { created: false, warning: null };
  }
  io.mkdirSync(dir, 0o700);
  if (platform === "win32") applyOwnerOnlyAcl(dir, "dir");
  else io.chmodSync(dir, 0o700); // the umask may have taken owner bits away
  return { created: true, warning: null };
}

const NOFOLLOW = fs.constants.O_NOFOLLOW ?? 0;

/**
 * Create `path` as a new owner-only append-only file and return its descriptor. Fails with
 * EEXIST when anything (file, link) already has that name: callers pick a fresh name.
 */
export function createPrivateFile(path: string, opts: SecureOptions = {}): number {
  const io = opts.io ?? realFileIo;
  const platform = opts.platform ?? process.platform;
  const { O_CREAT, O_EXCL, O_WRONLY, O_APPEND } = fs.constants;
  const fd = io.openSync(
    path,
    O_CREAT | O_EXCL | O_WRONLY | O_APPEND | (platform === "win32" ? 0 : NOFOLLOW),
    0o600,
  );
  try {
    if (platform === "win32") applyOwnerOnlyAcl(path, "file");
    else io.fchmodSync(fd, 0o600); // exact mode whatever the umask
  } catch (err) {
    // A file we cannot make private is not used: remove it and report why.
    try {
      io.closeSync(fd);
      io.unlinkSync(path);
    } catch {
      /* the original error is the one worth reporting */
    }
    throw err;
  }
  return fd;
}

/**
 * What an existing folder of effectgate's own state (the shared-taint folder) can be trusted
 * with. Unlike the log folder, nobody has a reason to share it, and a folder others can write
 * lets them delete or plant the files in it, so a loose one we own is tightened here.
 * - `absent`: nothing there.
 * - `private`: a folder we own that only we can use.
 * - `tightened`: a folder we own that group or others could use (`was`: its mode); now 0700.
 * - `untrusted`: another user's folder, not a folder (a file, a symlink), or one we could not
 *   look at or tighten; `why` says which, for an "expected X, got Y" message.
 * The folder is opened without following a link and checked and changed through that one
 * descriptor, so it cannot be swapped between the check and the chmod.
 */
export type DirTrust =
  | { state: "absent" }
  | { state: "private" }
  | { state: "tightened"; was: string }
  | { state: "untrusted"; why: string };

export function checkOwnDir(dir: string, opts: { platform?: NodeJS.Platform; uid?: number } = {}): DirTrust {
  const platform = opts.platform ?? process.platform;
  if (platform === "win32") {
    // Modes mean nothing there; folders effectgate creates get an owner-only DACL.
    try {
      return fs.statSync(dir).isDirectory() ? { state: "private" } : { state: "untrusted", why: "a file" };
    } catch (err) {
      return errCode(err) === "ENOENT"
        ? { state: "absent" }
        : { state: "untrusted", why: String(errCode(err)) };
    }
  }
  let fd: number;
  try {
    fd = fs.openSync(dir, fs.constants.O_RDONLY | (fs.constants.O_DIRECTORY ?? 0) | NOFOLLOW);
  } catch (err) {
    const code = errCode(err);
    if (code === "ENOENT") return { state: "absent" };
    // Linux says ENOTDIR for a link opened with O_DIRECTORY | O_NOFOLLOW, others ELOOP.
    if (code === "ELOOP" || code === "ENOTDIR")
      return { state: "untrusted", why: isSymlink(dir) ? `a symlink (${code})` : `a file (${code})` };
    return { state: "untrusted", why: `a folder we cannot open (${code ?? String(err)})` };
  }
  try {
    const st = fs.fstatSync(fd);
    const me = opts.uid ?? (typeof process.getuid === "function" ? process.getuid() : st.uid);
    if (st.uid !== me) return { state: "untrusted", why: `a folder owned by uid ${st.uid}, not ${me}` };
    if ((st.mode & 0o077) === 0) return { state: "private" };
    const was = (st.mode & 0o777).toString(8).padStart(4, "0");
    try {
      fs.fchmodSync(fd, 0o700);
    } catch (err) {
      return {
        state: "untrusted",
        why: `mode ${was}, which could not be changed (${errCode(err) ?? String(err)})`,
      };
    }
    return { state: "tightened", was };
  } finally {
    fs.closeSync(fd);
  }
}

function isSymlink(path: string): boolean {
  try {
    return fs.lstatSync(path).isSymbolicLink();
  } catch {
    return false;
  }
}

/**
 * Replaces `path` with `text` as a private file: its folder made private if new, a fresh
 * owner-only temp file beside it, then a rename, so a reader sees the old file or the new one.
 */
export function replacePrivateFile(path: string, text: string): void {
  ensurePrivateDir(dirname(path));
  const tmp = `${path}.${process.pid}.tmp`;
  const fd = createPrivateFile(tmp);
  try {
    fs.writeSync(fd, text);
  } catch (err) {
    fs.closeSync(fd);
    fs.unlinkSync(tmp);
    throw err;
  }
  fs.closeSync(fd);
  fs.renameSync(tmp, path);
}
