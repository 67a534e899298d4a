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
}

export function readConfig(path: string): ReadConfig {
  const target = realpathSync(path);
  const bytes = readFileSync(target);
  const text = bytes.toString("utf8");
  if (!Buffer.from(text, "utf8").equals(bytes))
    throw new Error(`${path}: expected UTF-8 text, got other bytes; left alone`);
  return { target, bytes, text, mode: statSync(target).mode & 0o7777 };
}

function writeAll(path: string, data: Buffer, mode: number): void {
  const fd = openSync(path, "wx", mode);
  try {
    writeSync(fd, data);
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
  chmodSync(path, mode); // the umask may have narrowed it
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
  writeAll(backup, read.bytes, 0o600);
  const tmp = join(
    dir,
    `.${basename(read.target)}.effectgate-${process.pid}-${randomBytes(4).toString("hex")}.tmp`,
  );
  const data = Buffer.from(newText, "utf8");
  try {
    writeAll(tmp, data, read.mode);
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
