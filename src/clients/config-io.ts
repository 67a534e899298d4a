// The edge of the clients layer: finding, reading and safely rewriting config files.
// A symlinked config is read and written at its target, so the link stays a link.
import {
  closeSync,
  existsSync,
  fsyncSync,
  openSync,
  readFileSync,
  realpathSync,
  renameSync,
  statSync,
  unlinkSync,
  writeSync,
  chmodSync,
  fchownSync,
  fstatSync,
} from "node:fs";
import { randomBytes } from "node:crypto";
import { basename, dirname, join } from "node:path";
import type { MachineFacts } from "../platform/client-paths.js";
import { CLIENTS } from "./registry/index.js";
import type { ClientSpec, ConfigFile } from "./types.js";

export interface Found {
  spec: ClientSpec;
  file: ConfigFile;
}

/** Every existing config file of the selected clients, in registry order, each path once. */
export function discover(
  facts: MachineFacts,
  projectDir: string,
  clients: readonly ClientSpec[] = CLIENTS,
): Found[] {
  const seen = new Set<string>();
  const out: Found[] = [];
  for (const spec of clients) {
    for (const f of spec.files(facts, projectDir)) {
      if (seen.has(f.path)) continue;
      seen.add(f.path);
      if (existsSync(f.path) && statSync(f.path).isFile())
        out.push({ spec, file: { ...f, client: spec.name } });
    }
  }
  return out;
}

export interface ReadConfig {
  /** The real file behind the configured path (differs for a symlink). */
  target: string;
  bytes: Buffer;
  text: string;
  mode: number;
  /** Owner of the original; a rewrite by another user (root via sudo) gives the file back to them. */
  uid: number;
  gid: number;
}

export function readConfig(path: string): ReadConfig {
  const target = realpathSync(path);
  const bytes = readFileSync(target);
  const text = bytes.toString("utf8");
  if (!Buffer.from(text, "utf8").equals(bytes))
    throw new Error(`${path}: expected UTF-8 text, got other bytes; left alone`);
  const st = statSync(target);
  return { target, bytes, text, mode: st.mode & 0o7777, uid: st.uid, gid: st.gid };
}

interface Owner {
  uid: number;
  gid: number;
}

/**
 * Creates `path` (never reusing an existing one) with `data`. A new file belongs to the writer,
 * so when `owner` differs (root editing a user's config via sudo) it is handed back: a config
 * left owned by root could no longer be rewritten by the client that owns it. If that is not
 * allowed, the write is refused rather than silently changing who owns the file.
 */
function writeAll(path: string, data: Buffer, mode: number, owner: Owner): void {
  const fd = openSync(path, "wx", mode);
  let ok = false;
  try {
    writeSync(fd, data);
    const st = fstatSync(fd);
    if (st.uid !== owner.uid || st.gid !== owner.gid) {
      try {
        fchownSync(fd, owner.uid, owner.gid);
      } catch (err) {
        throw new Error(
          `${path}: expected to keep owner ${owner.uid}:${owner.gid}, got ${(err as NodeJS.ErrnoException).code ?? "an error"} from chown; not written`,
          { cause: err },
        );
      }
    }
    fsyncSync(fd);
    ok = true;
  } finally {
    closeSync(fd);
    if (!ok) unlinkSync(path);
  }
  chmodSync(path, mode); // the umask may have narrowed it, and chown may have cleared set-id bits
}

/** The one backup of a config: the bytes before effectgate's latest write (decision 0087). */
function backupPath(target: string): string {
  return `${target}.effectgate-backup`;
}

export interface WriteOptions {
  /**
   * true: keep the bytes being replaced as the file's one backup (it replaces an older one).
   * false: the new text holds no effectgate wrapper (uninstall restored it), so its backup is
   * removed, and none is written.
   */
  backup: boolean;
}

/** Writes `data` as the file at `path` through a fresh temp name beside it, then renames. */
function replaceFile(path: string, data: Buffer, mode: number, owner: Owner): void {
  const tmp = join(
    dirname(path),
    `.${basename(path)}.effectgate-${process.pid}-${randomBytes(4).toString("hex")}.tmp`,
  );
  try {
    writeAll(tmp, data, mode, owner);
    renameSync(tmp, path);
  } catch (err) {
    if (existsSync(tmp)) unlinkSync(tmp);
    throw err;
  }
}

/**
 * Replaces the config with `newText`: refuses if the file changed since `read`, keeps (or
 * removes) its one owner-only backup next to it, writes a temp file in the same folder, fsyncs,
 * renames, and reads the result back. Returns the backup's path, or null when there is none.
 */
export function writeConfig(read: ReadConfig, newText: string, opts: WriteOptions): string | null {
  const current = readFileSync(read.target);
  if (!current.equals(read.bytes))
    throw new Error(`${read.target}: changed since it was read; not written (run again)`);
  const dir = dirname(read.target);
  const owner = { uid: read.uid, gid: read.gid };
  const backup = backupPath(read.target);
  if (opts.backup) replaceFile(backup, read.bytes, 0o600, owner);
  const data = Buffer.from(newText, "utf8");
  replaceFile(read.target, data, read.mode, owner);
  try {
    const fd = openSync(dir, "r");
    fsyncSync(fd);
    closeSync(fd);
  } catch {
    // Directories cannot be opened for fsync on Windows; the rename itself is what matters.
  }
  if (!readFileSync(read.target).equals(data))
    throw new Error(
      `${read.target}: read back different bytes after writing${opts.backup ? `; backup at ${backup}` : ""}`,
    );
  if (opts.backup) return backup;
  // Only after the restored bytes are safely in place.
  if (existsSync(backup)) unlinkSync(backup);
  return null;
}
