// Turns a YAML document into plain values while remembering the line of every key and value,
// so that each problem found later (by the schema or the pattern compiler) can name its line.
// We walk the node tree ourselves rather than calling toJS(): toJS() throws on the first
// alias, merges duplicate keys silently, and forgets where things were.
import { isAlias, isMap, isScalar, isSeq, LineCounter, parseDocument, type Node } from "yaml";

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

export function readYamlTree(text: string): YamlTree {
  const counter = new LineCounter();
  // uniqueKeys off: duplicates are reported below with their key path, not as a bare offset.
  const doc = parseDocument(text, { lineCounter: counter, uniqueKeys: false, prettyErrors: false });
  const lines = new Map<string, number>();
  const problems: TreeProblem[] = [];
  const lineOf = (offset: number | undefined): number =>
    offset === undefined ? 1 : counter.linePos(offset).line;

  const yamlIssues = [...doc.errors, ...doc.warnings];
  for (const issue of yamlIssues) {
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
    problems.push({ path: [], line: 1, expected: "a mapping with version: 1", got: "an empty document" });
    return { value: undefined, lines, problems, broken: true };
  }
  return { value: convert(doc.contents, []), lines, problems, broken: false };
}
