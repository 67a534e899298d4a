// The policy a run judges with, loading only what it needs (docs/decisions/0107-start-up-path.md).
import type { PlatformProfile } from "../core/paths/api.js";
import type { LoadedPolicy } from "../core/policy/compile.js";
import { readPrecompiledDefault } from "./default-policy.js";

/**
 * The shipped default comes from the document kept at build time when it matches the YAML's
 * bytes; any other policy, and a default that does not match, is read by readPolicy with every
 * check, which brings the YAML parser and the schema library with it. Throws ConfigError as
 * readPolicy does.
 */
export async function policyFor(spec: string | undefined, profile: PlatformProfile): Promise<LoadedPolicy> {
  const kept = spec === undefined || spec === "default" ? readPrecompiledDefault(profile) : undefined;
  return kept ?? (await import("./policy-file.js")).readPolicy(spec, profile);
}
