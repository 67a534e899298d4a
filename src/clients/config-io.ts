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

function stamp(now: Date): string {
  return now
    .toISOString()
    .replace(/[-:]/g, "")
    .replace(/\.\d+Z$/, "Z");
}

/**
 * Replaces the config with `newText`: refuses if the file changed since `read`, keeps an
 * owner-only backup next to it, writes a temp file in the same folder, fsyncs, renames, and
 * reads the result back. Returns the backup's path.
 */
export function writeConfig(read: ReadConfig, newText: string, now: Date): string {
  const current = readFileSync(read.target);
  if (!current.equals(read.bytes))
    throw new Error(`${read.target}: changed since it was read; not written (run again)`);
  const dir = dirname(read.target);
  let backup = `${read.target}.effectgate-backup-${stamp(now)}`;
  for (let i = 1; existsSync(backup); i++) backup = `${read.target}.effectgate-backup-${stamp(now)}-${i}`;
  const owner = { uid: read.uid, gid: read.gid };
  writeAll(backup, read.bytes, 0o600, owner);
  const tmp = join(
    dir,
    `.${basename(read.target)}.effectgate-${process.pid}-${randomBytes(4).toString("hex")}.tmp`,
  );
  const data = Buffer.from(newText, "utf8");
  try {
    writeAll(tmp, data, read.mode, owner);
    renameSync(tmp, read.target);
  } catch (err) {
    if (existsSync(tmp)) unlinkSync(tmp);
    throw err;
  }
  try {
    const fd = openSync(dir, "r");
    fsyncSync(fd);
    closeSync(fd);
  } catch {
    // Directories cannot be opened for fsync on Windows; the rename itself is what matters.
  }
  if (!readFileSync(read.target).equals(data))
    throw new Error(`${read.target}: read back different bytes after writing; backup at ${backup}`);
  return backup;
}
