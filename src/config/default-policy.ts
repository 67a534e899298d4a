// The shipped default policy without parsing YAML or loading the schema library at every start
// (docs/decisions/0107-start-up-path.md). The build validates policy/default.yaml once and keeps
// its document beside this module with the hash of the bytes it came from. A start reads the
// YAML's bytes, and uses the kept document only when their hash is the same: an edited default
// is always read from its own text.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { sha256Hex } from "../core/json/jcs.js";
import type { PlatformProfile } from "../core/paths/api.js";
import { compileDocument, type LoadedPolicy } from "../core/policy/compile.js";
import type { PolicyDocument } from "../core/policy/schema.js";
import { CODE_DIR, packagePath } from "../package-dir.js";

/** The shipped default: <package>/policy/default.yaml. */
export const DEFAULT_POLICY_PATH = packagePath("policy", "default.yaml");

/** Written by scripts/precompile-policy.mjs at build time beside the code (build/, dist/); absent under src/. */
export const PRECOMPILED_POLICY_PATH = join(CODE_DIR, "default-policy.json");

/** What the build keeps: the document, and the hash of the YAML bytes it was validated from. */
export interface PrecompiledPolicy {
  format: 1;
  sha256: string;
  document: PolicyDocument;
}

/**
 * The default policy compiled for `profile` from the kept document, or undefined when there is
 * none, it is for other bytes than policy/default.yaml's, or anything fails: the caller then
 * loads the YAML as it loads any policy file, with every check and message.
 */
export function readPrecompiledDefault(
  profile: PlatformProfile,
  paths: { yaml: string; kept: string } = { yaml: DEFAULT_POLICY_PATH, kept: PRECOMPILED_POLICY_PATH },
): LoadedPolicy | undefined {
  let sha256: string;
  let kept: Partial<PrecompiledPolicy>;
  try {
    sha256 = sha256Hex(readFileSync(paths.yaml));
    kept = JSON.parse(readFileSync(paths.kept, "utf8")) as Partial<PrecompiledPolicy>;
  } catch {
    return undefined;
  }
  if (kept.format !== 1 || kept.sha256 !== sha256 || kept.document === undefined) return undefined;
  return compileDocument(kept.document, "default", sha256, profile);
}
