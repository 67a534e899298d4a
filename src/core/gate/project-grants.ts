/**
 * "Always in this project": the grants a user keeps in `.effectgate/allow.yaml`
 * (docs/decisions/0134-project-allow-file.md). Each entry allows one exact effect, bound by the
 * effect key of decision 0104 (the key a session yes keeps, 0124), never a pattern. Its readable
 * words (server, method, tool, effects) must hash to its key, so a reviewer reads exactly what
 * is allowed: an entry edited by hand into another effect stops the relay instead of widening.
 *
 * Pure: the caller reads and writes the file (src/relay/gates/project-grants-file.ts).
 */
import { z } from "zod";
import { ConfigError, type ConfigProblem } from "../errors.js";
import { replaceHidden } from "../text/terminal-text.js";
import {
  describeFound,
  formatKeyPath,
  lineFor,
  readYamlTree,
  valueAt,
  type KeyPath,
  type YamlTree,
} from "../policy/yaml-tree.js";
import { entriesKey, type EffectEntry } from "./effect-key.js";

/** An entry before it is written: what was allowed, where, when and by whom. */
export interface NewProjectGrant {
  tool: string;
  server: string;
  method: string;
  effects: readonly EffectEntry[];
  /** The project root the relay ran in; an entry of another root is ignored. */
  root: string;
  key: string;
  /** ISO 8601, passed in (core has no clock). */
  granted: string;
  /** Who said yes, and how: `alice, in the chat`, `alice, effectgate allow 3f9a0c21 --project`. */
  by: string;
}

export interface ProjectGrant extends NewProjectGrant {
  /** The line of the entry's `-` in the file: the decision record names it. */
  line: number;
}

export interface ProjectGrants {
  /** The entries of this project root, in file order. */
  grants: ProjectGrant[];
  /** Entries written for another root (the file was copied or the project moved): ignored. */
  otherRoot: ProjectGrant[];
}

const text = z.string().min(1);
const EntrySchema = z.strictObject({
  tool: text,
  server: text,
  method: text,
  effects: z.array(z.string().regex(/^[a-z][a-z-]* \S/)),
  root: text,
  key: z.string().regex(/^[0-9a-f]{64}$/),
  granted: z.iso.datetime(),
  by: text,
});
const FileSchema = z.strictObject({
  version: z.literal(1),
  // `grants:` with nothing under it (every entry removed) is an empty list.
  grants: z.array(EntrySchema).nullable(),
});

const ENTRY_KEYS = "tool, server, method, effects, root, key, granted, by";
/** What each key should have held, in the words of `file:line: key: expected X, got Y`. */
function expectedAt(path: KeyPath): string {
  const last = path[path.length - 1];
  if (path.length === 0) return "a mapping with version: 1 and grants:";
  if (path[0] === "version") return "1";
  if (path.length === 1) return "a list of grants (each one `- tool: …`)";
  if (path.length === 2) return `a grant with ${ENTRY_KEYS}`;
  if (path[2] === "effects")
    return path.length === 3 ? "a list of effects" : 'an effect as "verb target" (write /p/x)';
  if (last === "key") return "64 hex digits (the effect key)";
  if (last === "granted") return "a time such as 2026-12-02T14:00:00.000Z";
  return "a non-empty string";
}

function problemsOf(tree: YamlTree, issues: readonly z.core.$ZodIssue[]): Omit<ConfigProblem, "file">[] {
  const out: Omit<ConfigProblem, "file">[] = [];
  for (const issue of issues) {
    const path = issue.path.filter((p): p is string | number => typeof p !== "symbol");
    if (issue.code === "unrecognized_keys") {
      for (const key of issue.keys)
        out.push({
          line: lineFor(tree, [...path, key], true),
          key: formatKeyPath([...path, key]),
          expected: path.length === 0 ? "one of version, grants" : `one of ${ENTRY_KEYS}`,
          got: "an unknown key",
        });
      continue;
    }
    const value = valueAt(tree.value, path);
    out.push({
      line: lineFor(tree, path, value === undefined),
      key: formatKeyPath(path),
      expected: expectedAt(path),
      got: describeFound(value),
    });
  }
  return out;
}

/** `write /p/x` → {verb: write, target: /p/x}: the verb has no blank, the target may. */
function entryOf(effect: string): EffectEntry {
  const at = effect.indexOf(" ");
  return { verb: effect.slice(0, at), target: effect.slice(at + 1) };
}

/**
 * Reads a grant file. Every problem (YAML, an unknown key, a missing field, a key that is not
 * the hash of its entry's words) is thrown together as one ConfigError naming `file` and the
 * line, like a policy's. Entries of a root other than `root` are returned apart.
 */
export function readProjectGrants(source: string, file: string, root: string): ProjectGrants {
  const tree = readYamlTree(source, { empty: "a mapping with version: 1 and grants:" });
  const problems: Omit<ConfigProblem, "file">[] = tree.problems.map((p) => ({
    line: p.line,
    key: formatKeyPath(p.path),
    expected: p.expected,
    got: p.got,
  }));
  const parsed = tree.broken ? undefined : FileSchema.safeParse(tree.value);
  if (parsed !== undefined && !parsed.success) problems.push(...problemsOf(tree, parsed.error.issues));
  const out: ProjectGrants = { grants: [], otherRoot: [] };
  if (parsed?.success === true)
    (parsed.data.grants ?? []).forEach((g, i) => {
      const effects = g.effects.map(entryOf);
      const key = entriesKey({ server: g.server, method: g.method, tool: g.tool, entries: effects });
      if (key !== g.key) {
        problems.push({
          line: lineFor(tree, ["grants", i, "key"], false),
          key: formatKeyPath(["grants", i, "key"]),
          expected: `the key of this entry's server, method, tool and effects (${key})`,
          got: g.key,
        });
        return;
      }
      const grant = { ...g, effects, line: lineFor(tree, ["grants", i], false) };
      (g.root === root ? out.grants : out.otherRoot).push(grant);
    });
  if (problems.length > 0)
    throw new ConfigError(
      [...problems].sort((a, b) => (a.line ?? 0) - (b.line ?? 0)).map((p) => ({ file, ...p })),
    );
  return out;
}

/** What a new file starts with, before its first entry. */
export const GRANT_FILE_HEAD = [
  "# Calls effectgate allows in this project without asking you (docs/asking.md in effectgate).",
  "# Each entry allows one exact effect: that server, that tool, and exactly these paths and commands.",
  "# Delete an entry to be asked again. effectgate adds new entries at the end of the list.",
  "version: 1",
  "grants:",
  "",
].join("\n");

/**
 * A YAML double-quoted string: JSON's escapes are YAML's, and every character a reviewer could
 * not see (controls, bidi marks, zero-width and tag characters) is escaped too.
 */
function quoted(s: string): string {
  return replaceHidden(JSON.stringify(s), (ch) => {
    const code = ch.codePointAt(0) ?? 0;
    return code > 0xffff
      ? `\\U${code.toString(16).padStart(8, "0")}`
      : `\\u${code.toString(16).padStart(4, "0")}`;
  });
}

/** One entry, as the lines appended to the `grants:` list. */
export function renderGrantEntry(g: NewProjectGrant): string {
  return [
    `  - tool: ${quoted(g.tool)}`,
    `    server: ${quoted(g.server)}`,
    `    method: ${quoted(g.method)}`,
    g.effects.length === 0 ? "    effects: []" : "    effects:",
    ...g.effects.map((e) => `      - ${quoted(`${e.verb} ${e.target}`)}`),
    `    root: ${quoted(g.root)}`,
    `    key: ${quoted(g.key)}`,
    `    granted: ${quoted(g.granted)}`,
    `    by: ${quoted(g.by)}`,
    "",
  ].join("\n");
}

/**
 * The file's new text with `g` added at the end, every existing byte kept (comments too). The
 * result is read back: unless it holds one more entry, the new one last with its key, the file
 * is not one effectgate can add to (its list is not last, or is written `[]`) and this throws.
 */
export function withGrant(existing: string | undefined, g: NewProjectGrant, file: string): string {
  const before = existing === undefined || existing.trim() === "" ? GRANT_FILE_HEAD : existing;
  const count = existing === undefined || existing.trim() === "" ? 0 : countAll(before, file, g.root);
  const sep = before.endsWith("\n") ? "" : "\n";
  const next = `${before}${sep}${renderGrantEntry(g)}`;
  let after: ProjectGrants | undefined;
  try {
    after = readProjectGrants(next, file, g.root);
  } catch {
    after = undefined; // the file as it was reads; only the entry added breaks it
  }
  const last = after?.grants[after.grants.length - 1];
  if (
    after === undefined ||
    after.grants.length + after.otherRoot.length !== count + 1 ||
    last?.key !== g.key
  )
    throw new ConfigError([
      {
        file,
        key: "grants",
        expected: "a file whose grants: list is its last key, written one `- ` entry per grant",
        got: "a file effectgate cannot add an entry to",
      },
    ]);
  return next;
}

function countAll(text: string, file: string, root: string): number {
  const r = readProjectGrants(text, file, root);
  return r.grants.length + r.otherRoot.length;
}
