// Turns a YAML document into plain values while remembering the line of every key and value,
// so that each problem found later (by the schema or the pattern compiler) can name its line.
// We walk the node tree ourselves rather than calling toJS(): toJS() throws on the first
// alias, merges duplicate keys silently, and forgets where things were.
import { isAlias, isMap, isScalar, isSeq, LineCounter, parseAllDocuments, parseDocument, type Node } from "yaml";
import { describeValue } from "../errors.js";

export type KeyPath = readonly (string | number)[];

/** A problem before it gets its file name: key path, line, and the two halves of the message. */
export interface TreeProblem {
  path: KeyPath;
  line: number;
  expected: string;
  got: string;
}

export interface YamlTree {
  /** The document as plain values; undefined when the text could not be read as YAML at all. */
  value: unknown;
  /** Line of each value, keyed by formatKeyPath(path); `key:` entries hold the key's own line. */
  lines: ReadonlyMap<string, number>;
  problems: TreeProblem[];
  /** True when YAML itself failed: the tree is partial and schema checks would mislead. */
  broken: boolean;
}

/** `paths.confirm_if_tainted[3]`; the document itself is `(document)`. */
export function formatKeyPath(path: KeyPath): string {
  let out = "";
  for (const part of path) out += typeof part === "number" ? `[${part}]` : out === "" ? part : `.${part}`;
  return out === "" ? "(document)" : out;
}

export interface TreeOptions {
  /** What an empty document should have been (a policy: "a mapping with version: 1"). */
  empty?: string;
  /**
   * Whether aliases are read as the value they name. A policy refuses them (an unquoted `*` glob
   * is an alias); attack scenarios use them to repeat a tool list.
   */
  aliases?: boolean;
}

/** More alias expansions than this is a "billion laughs" document (or a cycle), not a file. */
const MAX_ALIASES = 1000;

export function readYamlTree(text: string, options: TreeOptions = {}): YamlTree {
  const { empty = "a mapping with version: 1", aliases = false } = options;
  let expanded = 0;
  const counter = new LineCounter();
  // uniqueKeys off: duplicates are reported below with their key path, not as a bare offset.
  // schema "core" whatever the file says: a `%YAML 1.1` directive would otherwise turn yes/no
  // into booleans, which every other file has refused as strings.
  const doc = parseDocument(text, {
    lineCounter: counter,
    uniqueKeys: false,
    prettyErrors: false,
    schema: "core",
  });
  const lines = new Map<string, number>();
  const problems: TreeProblem[] = [];
  const lineOf = (offset: number | undefined): number =>
    offset === undefined ? 1 : counter.linePos(offset).line;

  const yamlIssues = [...doc.errors, ...doc.warnings];
  for (const issue of yamlIssues) {
    if (issue.code === "MULTIPLE_DOCS") {
      // The library's own words point at its API (parseAllDocuments), not at the file.
      const count = parseAllDocuments(text).length;
      problems.push({
        path: [],
        line: lineOf(issue.pos[0]),
        expected: "one YAML document",
        got: String(count),
      });
      continue;
    }
    const got = issue.message.split("\n")[0] ?? issue.code;
    problems.push({
      path: [],
      line: lineOf(issue.pos[0]),
      expected: "valid YAML",
      got: `${issue.code}: ${got}`,
    });
  }
  if (yamlIssues.length > 0) return { value: undefined, lines, problems, broken: true };

  const convert = (node: unknown, path: KeyPath): unknown => {
    const here = formatKeyPath(path);
    const start = (node as Node | null)?.range?.[0];
    lines.set(here, lineOf(start));
    if (isAlias(node) && aliases) {
      const target = node.resolve(doc);
      expanded += 1;
      if (target === undefined || expanded > MAX_ALIASES) {
        problems.push({
          path,
          line: lineOf(start),
          expected: `an alias that names an anchor (at most ${MAX_ALIASES} in a file)`,
          got: `alias *${node.source}`,
        });
        return undefined;
      }
      const value = convert(target, path);
      lines.set(here, lineOf(start));
      return value;
    }
    if (isAlias(node)) {
      problems.push({
        path,
        line: lineOf(start),
        expected: "a value written out (YAML aliases are not allowed; quote globs that start with *)",
        got: `alias *${node.source}`,
      });
      return undefined;
    }
    if (isScalar(node)) return node.value;
    if (isSeq(node)) return node.items.map((item, i) => convert(item, [...path, i]));
    if (isMap(node)) {
      const out: Record<string, unknown> = {};
      const seen = new Map<string, number>();
      for (const pair of node.items) {
        const keyNode = pair.key as Node | null;
        const keyLine = lineOf(keyNode?.range?.[0]);
        // typeof null is "object": this also refuses the null key (`~:`).
        if (!isScalar(keyNode) || typeof keyNode.value === "object") {
          problems.push({ path, line: keyLine, expected: "plain keys", got: "a complex or empty key" });
          continue;
        }
        const key = String(keyNode.value);
        const first = seen.get(key);
        if (first !== undefined) {
          problems.push({
            path: [...path, key],
            line: keyLine,
            expected: `each key once (first on line ${first})`,
            got: "a duplicate key",
          });
          continue;
        }
        seen.set(key, keyLine);
        lines.set(`key:${formatKeyPath([...path, key])}`, keyLine);
        // An empty value (`deny:` with nothing after it) has no node; place it on the key's line.
        const value = convert(pair.value, [...path, key]);
        if (pair.value === null) lines.set(formatKeyPath([...path, key]), keyLine);
        Object.defineProperty(out, key, { value, enumerable: true, writable: true, configurable: true });
      }
      return out;
    }
    return null; // no node at all: an empty value
  };

  if (doc.contents === null) {
    problems.push({ path: [], line: 1, expected: empty, got: "an empty document" });
    return { value: undefined, lines, problems, broken: true };
  }
  return { value: convert(doc.contents, []), lines, problems, broken: false };
}

/** The line of the value at `path`, else of its key, else of the closest parent that has one. */
export function lineFor(tree: YamlTree, path: KeyPath, preferKey: boolean): number {
  for (let n = path.length; n >= 0; n -= 1) {
    const at = formatKeyPath(path.slice(0, n));
    // Every key that has a line also has a value line (an empty value takes the key's), so the
    // `key:` entry is only worth asking for when the key's own line is wanted.
    const line = (preferKey ? tree.lines.get(`key:${at}`) : undefined) ?? tree.lines.get(at);
    if (line !== undefined) return line;
  }
  return 1;
}

/** The value at `path` of a tree's plain value, or undefined when a step is missing. */
export function valueAt(root: unknown, path: KeyPath): unknown {
  let here: unknown = root;
  for (const part of path) {
    if (here === null || typeof here !== "object" || !Object.hasOwn(here, part)) return undefined;
    here = (here as Record<string | number, unknown>)[part];
  }
  return here;
}

/** "got …" words for a value found in a file (or not found). */
export function describeFound(value: unknown): string {
  if (value === undefined) return "nothing";
  if (value === null) return "an empty value";
  return describeValue(value);
}
