// Finding and reading the policy the relay (and the offline commands) judge with.
// `--policy` absent or `default` means the policy shipped in the package; anything else is a
// file path. A file that cannot be read is a configuration error (exit 78), never a fallback.
import { readFileSync } from "node:fs";
import { ConfigError } from "../core/errors.js";
import { sha256Hex } from "../core/json/jcs.js";
import type { PlatformProfile } from "../core/paths/api.js";
import type { LoadedPolicy } from "../core/policy/compile.js";
import { loadPolicy } from "../core/policy/load.js";
import { DEFAULT_POLICY_PATH, readPrecompiledDefault } from "./default-policy.js";

function reasonOf(err: unknown): string {
  const code = (err as NodeJS.ErrnoException | undefined)?.code;
  switch (code) {
    case "ENOENT":
      return "no such file (ENOENT)";
    case "EACCES":
    case "EPERM":
      return `no permission to read it (${code})`;
    case "EISDIR":
      return "a directory (EISDIR)";
    default:
      return code ?? (err instanceof Error ? err.message : String(err));
  }
}

/** The bytes of a policy file and their text, or a ConfigError naming the file. */
export function readPolicyBytes(path: string, shownAs: string): { text: string; sha256: string } {
  let bytes: Buffer;
  try {
    bytes = readFileSync(path);
  } catch (err) {
    throw new ConfigError([
      { file: shownAs, key: "--policy", expected: "a readable policy file", got: reasonOf(err) },
    ]);
  }
  let text: string;
  try {
    text = new TextDecoder("utf-8", { fatal: true }).decode(bytes);
  } catch {
    throw new ConfigError([
      { file: shownAs, key: "--policy", expected: "a UTF-8 text file", got: "bytes that are not UTF-8" },
    ]);
  }
  return { text, sha256: sha256Hex(bytes) };
}

/**
 * The compiled policy for `--policy <spec>` on `profile`. `undefined` and `"default"` load the
 * shipped policy (its source is then `default`); other values are paths, relative ones to the
 * process's working directory. Throws ConfigError for an unreadable or invalid file.
 */
export function readPolicy(spec: string | undefined, profile: PlatformProfile): LoadedPolicy {
  if (spec === undefined || spec === "default") {
    const kept = readPrecompiledDefault(profile);
    if (kept !== undefined) return kept;
    const { text, sha256 } = readPolicyBytes(DEFAULT_POLICY_PATH, DEFAULT_POLICY_PATH);
    return loadPolicy(text, "default", sha256, profile);
  }
  if (spec.trim() === "") {
    throw new ConfigError([
      {
        file: "(command line)",
        key: "--policy",
        expected: "default or a policy file path",
        got: "an empty value",
      },
    ]);
  }
  const { text, sha256 } = readPolicyBytes(spec, spec);
  return loadPolicy(text, spec, sha256, profile);
}
