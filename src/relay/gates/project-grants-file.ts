// Reading and adding to `.effectgate/allow.yaml` (decision 0134). Loaded only when the file is
// there or a yes is kept for the project: its YAML reader and schema stay off the start path
// (decision 0107).
import * as fs from "node:fs";
import { randomBytes } from "node:crypto";
import { basename, dirname, join } from "node:path";
import { ConfigError } from "../../core/errors.js";
import {
  readProjectGrants,
  withGrant,
  type NewProjectGrant,
  type ProjectGrants,
} from "../../core/gate/project-grants.js";
import { createPrivateFile } from "../../platform/secure-file.js";

function problem(file: string, expected: string, got: string): ConfigError {
  return new ConfigError([{ file, key: "(file)", expected, got }]);
}

/** The file's text, or undefined when it is not there. A link or a folder is refused. */
function readText(file: string): string | undefined {
  let st: fs.Stats;
  try {
    st = fs.lstatSync(file);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === "ENOENT") return undefined;
    throw problem(file, "a readable grant file", (err as NodeJS.ErrnoException).code ?? String(err));
  }
  // A link would let the grants be read from (and written to) somewhere the project does not show.
  if (!st.isFile())
    throw problem(file, "a regular file", st.isSymbolicLink() ? "a symbolic link" : "not a file");
  let bytes: Buffer;
  try {
    bytes = fs.readFileSync(file);
  } catch (err) {
    throw problem(file, "a readable grant file", (err as NodeJS.ErrnoException).code ?? String(err));
  }
  try {
    return new TextDecoder("utf-8", { fatal: true }).decode(bytes);
  } catch {
    throw problem(file, "a UTF-8 text file", "bytes that are not UTF-8");
  }
}

/** The folder must be a real folder of the project, not a link to one elsewhere. */
function checkFolder(dir: string): void {
  try {
    if (!fs.lstatSync(dir).isDirectory()) throw problem(dir, "a folder", "a link or a file");
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== "ENOENT") throw err;
  }
}

/** The grants of `root` in `file`; none when the file is not there. Throws ConfigError. */
export function readProjectGrantFile(file: string, root: string): ProjectGrants {
  checkFolder(dirname(file));
  const text = readText(file);
  return text === undefined ? { grants: [], otherRoot: [] } : readProjectGrants(text, file, root);
}

/**
 * Adds `g` at the end of `file`, keeping every byte already there: a temp file in the same
 * folder, owner-only (0600), fsynced, renamed over the old one. Returns the new entry's line.
 */
export function appendProjectGrant(file: string, g: NewProjectGrant): number {
  const dir = dirname(file);
  checkFolder(dir);
  fs.mkdirSync(dir, { recursive: true });
  const next = withGrant(readText(file), g, file);
  const tmp = join(dir, `.${basename(file)}.${randomBytes(6).toString("hex")}.tmp`);
  const fd = createPrivateFile(tmp);
  try {
    try {
      fs.writeSync(fd, next);
      fs.fsyncSync(fd);
    } finally {
      fs.closeSync(fd);
    }
    fs.renameSync(tmp, file);
  } catch (err) {
    fs.rmSync(tmp, { force: true });
    throw err;
  }
  try {
    const d = fs.openSync(dir, "r");
    fs.fsyncSync(d);
    fs.closeSync(d);
  } catch {
    // Folders cannot be opened for fsync on Windows; the rename is what matters.
  }
  const added = readProjectGrants(next, file, g.root).grants.at(-1);
  return added?.line ?? 1;
}
