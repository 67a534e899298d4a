// The baseline file of `verify` and `watch`, read and written so that a path that is a folder,
// a dangling link or a file of another user is a configuration error (exit 78, one line naming
// the file), never a stack trace. The parsing and the format live in src/clients/.
import { statSync } from "node:fs";
import { readBaseline, writeBaseline } from "../clients/baseline-file.js";
import type { Baseline } from "../clients/baseline.js";
import { ConfigError } from "../core/errors.js";
import { readFailure } from "../log/read-failure.js";

function isErrno(err: unknown): err is NodeJS.ErrnoException {
  return err instanceof Error && typeof (err as NodeJS.ErrnoException).code === "string";
}

/** readBaseline, with file-system failures said as `file: baseline: expected X, got Y`. */
export function readBaselineFile(path: string): Baseline {
  try {
    return readBaseline(path);
  } catch (err) {
    if (!isErrno(err)) throw err;
    throw new ConfigError([
      {
        file: path,
        key: "baseline",
        expected: "a readable file written by `effectgate verify --write`",
        got: readFailure(path, err),
      },
    ]);
  }
}

/** writeBaseline, refusing a folder up front (the rename would fail after a temporary file). */
export function writeBaselineFile(path: string, baseline: Baseline): void {
  if (isFolder(path))
    throw new ConfigError([
      {
        file: path,
        key: "baseline",
        expected: "a file path to write the baseline to",
        got: "a folder (EISDIR)",
      },
    ]);
  try {
    writeBaseline(path, baseline);
  } catch (err) {
    if (!isErrno(err)) throw err;
    throw new ConfigError([
      {
        file: path,
        key: "baseline",
        expected: "a file path to write the baseline to",
        got: readFailure(path, err, "write"),
      },
    ]);
  }
}

function isFolder(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}
