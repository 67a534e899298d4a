import { existsSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from "node:fs";
import { dirname, basename, join } from "node:path";
import { findNodeAtLocation, parse, parseTree, visit, type ParseError } from "jsonc-parser";
import { ConfigError, describeValue, type ConfigProblem } from "../core/errors.js";
import { parseStrictJson } from "../core/json/strict-json.js";
import {
  formatLockPath,
  hashProblems,
  LockFile,
  serializeLock,
  type HashProblem,
} from "../core/pins/lock.js";

/**
 * Reading and writing `effectgate.lock`. A lock that does not parse, has a key the schema does
 * not know, a duplicate key, or a hash that does not match its values stops everything with
 * exit 78: a lock that cannot be trusted must not quietly approve anything.
 */

export const DEFAULT_LOCK = "effectgate.lock";

export interface LoadedLock {
  lock: LockFile;
  /** Hash mismatches; empty unless loaded with `allowEdited` (they are errors otherwise). */
  edited: HashProblem[];
}

/** 1-based line and column (in UTF-16 code units) of a character offset. */
function lineColumnAt(text: string, offset: number): { line: number; column: number } {
  let line = 1;
  let lineStart = 0;
  for (let i = 0; i < offset && i < text.length; i++)
    if (text.charCodeAt(i) === 10) {
      line++;
      lineStart = i + 1;
    }
  return { line, column: Math.min(offset, text.length) - lineStart + 1 };
}

function lineOf(text: string, path: (string | number)[]): number | undefined {
  const root = parseTree(text);
  if (root === undefined) return undefined;
  // A missing member has no node of its own: point at the nearest enclosing one.
  for (let n = path.length; n >= 0; n--) {
    const node = findNodeAtLocation(root, path.slice(0, n));
    if (node !== undefined) return lineColumnAt(text, node.offset).line;
  }
  return undefined;
}

/**
 * A lock that is not JSON, with the line and column where reading stopped. Node 20's JSON.parse
 * gives only "at position N" (later versions add a line and column of their own), some messages
 * ("Unexpected token 'o', "nope" is not valid JSON") give nothing; jsonc-parser's first error
 * says where then. An error with no place (nested too deep) is reported as it is.
 */
function notJson(file: string, text: string, error: string): ConfigProblem {
  const problem = { file, key: "(file)", expected: "JSON", got: error };
  const why = /^not valid JSON \((.*)\)$/s.exec(error)?.[1];
  if (why === undefined) return problem;
  const at = /in JSON at position (\d+)/.exec(why)?.[1];
  let offset = at !== undefined ? Number(at) : why.startsWith("Unexpected end") ? text.length : undefined;
  if (offset === undefined) {
    const errors: ParseError[] = [];
    parse(text, errors, { disallowComments: true, allowTrailingComma: false });
    offset = errors[0]?.offset;
  }
  if (offset === undefined) return problem;
  const { line, column } = lineColumnAt(text, offset);
  // Drop what the place now says, and the quoted text some messages carry (it may span lines).
  const what = why
    .replace(/ in JSON at position \d+.*$/s, "")
    .replace(/, (\.\.\.)?".*" is not valid JSON$/s, "");
  return { ...problem, line, got: `not valid JSON (${what}, at line ${line} column ${column})` };
}

/** Where the first duplicate member name is, with its line (JSON.parse would keep the last). */
function duplicateKey(text: string): { path: (string | number)[]; line: number } | undefined {
  const stack: Set<string>[] = [];
  let found: { path: (string | number)[]; line: number } | undefined;
  visit(text, {
    onObjectBegin: () => void stack.push(new Set()),
    onObjectEnd: () => void stack.pop(),
    onObjectProperty: (name, _offset, _length, startLine, _col, pathSupplier) => {
      const keys = stack[stack.length - 1];
      if (found !== undefined || keys === undefined) return;
      if (keys.has(name)) found = { path: [...pathSupplier(), name], line: startLine + 1 };
      keys.add(name);
    },
  });
  return found;
}

/**
 * Load and validate a lock. `mustExist: false` gives an empty lock for a missing file (for
 * `approve`, which creates it). `allowEdited` returns hash mismatches instead of throwing, so
 * `approve` can show and then replace a hand-edited entry.
 */
export function loadLock(file: string, opts: { mustExist: boolean; allowEdited?: boolean }): LoadedLock {
  if (!existsSync(file)) {
    if (!opts.mustExist) return { lock: { version: 1, servers: {} }, edited: [] };
    throw new ConfigError([
      { file, key: "(file)", expected: "a lock file written by effectgate approve", got: "no such file" },
    ]);
  }
  let text: string;
  try {
    text = readFileSync(file, "utf8");
  } catch (err) {
    throw new ConfigError([
      { file, key: "(file)", expected: "a readable lock file", got: (err as Error).message },
    ]);
  }
  if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
  const parsed = parseStrictJson(text);
  if (!parsed.ok) {
    const dup = duplicateKey(text);
    if (dup)
      throw new ConfigError([
        {
          file,
          line: dup.line,
          key: formatLockPath(dup.path),
          expected: "each key once",
          got: "a duplicate key",
        },
      ]);
    throw new ConfigError([notJson(file, text, parsed.error)]);
  }
  const checked = LockFile.safeParse(parsed.value);
  if (!checked.success) {
    const problems: ConfigProblem[] = checked.error.issues.map((issue) => {
      const path = issue.path.map((p) => (typeof p === "number" ? p : String(p)));
      const extra = issue.code === "unrecognized_keys" ? issue.keys : undefined;
      const at = extra && extra[0] !== undefined ? [...path, extra[0]] : path;
      const got = extra
        ? `unknown key ${extra.map((k) => JSON.stringify(k)).join(", ")}`
        : describeOrNothing(valueAt(parsed.value, path));
      const line = lineOf(text, at);
      return {
        file,
        ...(line !== undefined ? { line } : {}),
        key: formatLockPath(at) || "(top level)",
        expected: expectedFor(issue),
        got,
      };
    });
    throw new ConfigError(problems);
  }
  const lock = checked.data;
  const edited = hashProblems(lock);
  if (edited.length > 0 && !opts.allowEdited) {
    throw new ConfigError(
      edited.map((p) => {
        const line = lineOf(text, [...p.at, p.field]);
        return {
          file,
          ...(line !== undefined ? { line } : {}),
          key: `${formatLockPath(p.at)}: ${p.field}`,
          expected: `${p.recomputed} (recomputed)`,
          got: `${p.stored}; re-run effectgate approve`,
        };
      }),
    );
  }
  return { lock, edited };
}

function expectedFor(issue: { code: string; message: string; expected?: unknown }): string {
  if (issue.code === "unrecognized_keys") return "only known keys";
  if (issue.code === "invalid_type" && typeof issue.expected === "string") return issue.expected;
  return issue.message.replace(/^Invalid input: expected /, "").replace(/, received .*$/, "");
}

const describeOrNothing = (v: unknown): string => (v === undefined ? "nothing" : describeValue(v));

function valueAt(root: unknown, path: (string | number)[]): unknown {
  let v: unknown = root;
  for (const p of path)
    v = typeof v === "object" && v !== null ? (v as Record<string | number, unknown>)[p] : undefined;
  return v;
}

/**
 * `approve` writes the lock into a folder that exists; it does not create one, so a mistyped
 * `--lock` cannot grow a new tree. Checked before the server is started, and again on writing.
 */
export function checkLockFolder(file: string): void {
  const folder = dirname(file);
  let got: string | undefined;
  try {
    if (!statSync(folder).isDirectory()) got = "not a folder";
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    got = code === "ENOENT" || code === "ENOTDIR" ? "no such folder" : (err as Error).message;
  }
  if (got !== undefined)
    throw new ConfigError([
      { file, key: "(folder)", expected: `an existing folder ${folder} to write the lock in`, got },
    ]);
}

/** Write atomically (temp file beside it, then rename) so a crash never leaves half a lock. */
export function writeLock(file: string, lock: LockFile): void {
  checkLockFolder(file);
  const tmp = join(dirname(file), `.${basename(file)}.${process.pid}.tmp`);
  try {
    writeFileSync(tmp, serializeLock(lock), { mode: 0o644 });
    renameSync(tmp, file);
  } catch (err) {
    rmSync(tmp, { force: true });
    throw new ConfigError([
      { file, key: "(file)", expected: "a lock file effectgate can write", got: (err as Error).message },
    ]);
  }
}
