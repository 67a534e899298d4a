// Loading a policy file: YAML → plain values (with lines) → strict schema → compiled lists.
// Every problem in the file is collected and thrown together as one ConfigError, one line per
// problem (`file:line: key: expected X, got Y`). Nothing is defaulted to hide a mistake.
import type { z } from "zod";
import { ConfigError, type ConfigProblem } from "../errors.js";
import type { PlatformProfile } from "../paths/api.js";
import { buildPolicy, type LoadedPolicy } from "./compile.js";
import { compileLists, type CompiledLists, type PolicyProblem, section } from "./compile-lists.js";
import { crossCheck, crossCheckCommands } from "./cross-check.js";
import { nearKey } from "./near-key.js";
import { CommandsSchema, ExecSchema, expectedAt, KNOWN_KEYS, PolicySchema, type PolicyDocument } from "./schema.js";
import {
  describeFound,
  formatKeyPath,
  lineFor,
  readYamlTree,
  valueAt,
  type KeyPath,
  type YamlTree,
} from "./yaml-tree.js";

function unknownKeyProblem(tree: YamlTree, parent: KeyPath, key: string): Omit<ConfigProblem, "file"> {
  const section = parent.map(String).join(".");
  const known = KNOWN_KEYS[section] ?? [];
  let hint = nearKey(key, known);
  if (hint === undefined) {
    // A right key in the wrong section, e.g. `deny_read:` written at the top level. The key is
    // unknown in its own section, so only other sections can include it.
    for (const [other, keys] of Object.entries(KNOWN_KEYS)) {
      if (other !== "" && keys.includes(key))
        hint = `${other}.${key} (it belongs under ${other}:)`;
    }
  }
  const path = [...parent, key];
  return {
    line: lineFor(tree, path, true),
    key: formatKeyPath(path),
    expected: `one of ${known.join(", ")}${hint === undefined ? "" : ` (did you mean ${hint}?)`}`,
    got: "an unknown key",
  };
}

function schemaProblems(tree: YamlTree, issues: readonly z.core.$ZodIssue[]): Omit<ConfigProblem, "file">[] {
  const out: Omit<ConfigProblem, "file">[] = [];
  for (const issue of issues) {
    const path = issue.path.filter((p): p is string | number => typeof p !== "symbol");
    if (issue.code === "unrecognized_keys") {
      for (const key of issue.keys) out.push(unknownKeyProblem(tree, path, key));
      continue;
    }
    const value = valueAt(tree.value, path);
    // EXPECTED words every key of the schema; zod's own message is only a fallback.
    const expected = expectedAt(path) ?? issue.message;
    out.push({
      line: lineFor(tree, path, value === undefined),
      key: formatKeyPath(path),
      expected,
      got: describeFound(value),
    });
  }
  return out;
}

/**
 * Parse, validate and compile a policy. `source` names the file in every problem (and becomes
 * CompiledPolicy.source); `sha256` is the hash of the file's bytes, computed by the caller.
 * Throws ConfigError listing every problem, ordered by line.
 */
export function loadPolicy(
  text: string,
  source: string,
  sha256: string,
  profile: PlatformProfile,
): LoadedPolicy {
  const { doc, lists } = readPolicyDocument(text, source, profile);
  return buildPolicy(doc, lists, source, sha256);
}

/**
 * The validated document of a policy and its lists compiled on `profile`; throws ConfigError
 * like loadPolicy. The build keeps the shipped default's document (scripts/precompile-policy.mjs).
 */
export function readPolicyDocument(
  text: string,
  source: string,
  profile: PlatformProfile,
): { doc: PolicyDocument; lists: CompiledLists } {
  const tree = readYamlTree(text);
  const problems: Omit<ConfigProblem, "file">[] = tree.problems.map((p) => ({
    line: p.line,
    key: formatKeyPath(p.path),
    expected: p.expected,
    got: p.got,
  }));
  const fail = (): never => {
    // sort() is stable: problems on one line keep the order they were found in.
    const sorted = [...problems]
      .sort((a, b) => (a.line ?? 0) - (b.line ?? 0))
      .map((p) => ({ file: source, ...p }));
    throw new ConfigError(sorted);
  };
  if (tree.broken) return fail();

  const parsed = PolicySchema.safeParse(tree.value);
  // A value the tree could not give (an alias) was reported already; the schema would only
  // add "got nothing" for the same key.
  const reported = new Set(problems.map((p) => p.key));
  if (!parsed.success) {
    for (const p of schemaProblems(tree, parsed.error.issues))
      if (!(reported.has(p.key) && p.got === "nothing")) problems.push(p);
  }
  const { lists, problems: listProblems } = compileLists(tree.value, profile);
  // A missing key has no line of its own: it is reported on the line of the key that holds it.
  const located = (p: PolicyProblem) => ({
    line: lineFor(tree, p.path, p.got === "nothing"),
    key: formatKeyPath(p.path),
    expected: p.expected,
    got: p.got,
  });
  problems.push(...listProblems.map(located));
  // Checked on its own so that a mistake elsewhere in the file does not hide this one.
  const exec = ExecSchema.optional().safeParse(section(tree.value, "exec"));
  // An invalid exec section has no data (already reported by the schema): nothing to cross-check.
  problems.push(...crossCheck(exec.data).map(located));
  const commands = CommandsSchema.optional().safeParse(section(tree.value, "commands"));
  problems.push(...crossCheckCommands(commands.data).map(located));

  if (problems.length > 0 || !parsed.success) return fail();
  return { doc: parsed.data, lists };
}
