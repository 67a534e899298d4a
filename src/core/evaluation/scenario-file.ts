// One attack-scenario file → a Scenario, or its problems as `file:line: key: expected X, got Y`.
// The YAML is read by the policy loader's tree (lines of every key and value, duplicate keys,
// aliases, one document), so a scenario mistake reads like a policy mistake.
import type { z } from "zod";
import type { ConfigProblem } from "../errors.js";
import {
  describeFound,
  formatKeyPath,
  lineFor,
  readYamlTree,
  valueAt,
  type KeyPath,
  type YamlTree,
} from "../policy/yaml-tree.js";
import { expandSecrets } from "./fake-secrets.js";
import { Scenario } from "./scenario.js";

type Problem = Omit<ConfigProblem, "file">;

const MESSAGE_KEYS = ["c2s", "s2c", "c2s_raw"] as const;
const MESSAGE = "a message: a mapping with one of c2s, s2c, c2s_raw (and optionally harmful: true, note)";
const TEXT = "a non-empty string";

/** What each key expects, in words; list indexes are written `[]`. */
const EXPECTED: Readonly<Record<string, string>> = {
  "": "a scenario: a mapping with id, title, category, source, platform, server, messages",
  id: "lower-case words joined by - (like spelling-symlink)",
  title: TEXT,
  category: TEXT,
  source: "a mapping with ref and what",
  "source.ref": TEXT,
  "source.what": TEXT,
  platform: "one of linux, darwin, win32",
  server: "a mapping with name and command",
  "server.name": TEXT,
  "server.command": "a non-empty list of strings",
  "server.command[]": "a string",
  home: "a string",
  cwd: "a string",
  env: "a mapping of variable names to strings",
  links: "a mapping of absolute paths to what they really are",
  approved: "a list of tools (mappings)",
  "approved[]": "a tool (a mapping)",
  visible: "true or false",
  why_invisible: "a string",
  messages: "a list of messages",
  "messages[]": MESSAGE,
  "messages[].c2s": "a JSON-RPC message (a mapping)",
  "messages[].s2c": "a JSON-RPC message (a mapping)",
  "messages[].c2s_raw": "a frame as text (a string)",
  "messages[].harmful": "true (leave it out for a harmless message)",
  "messages[].note": "a string",
};

/** The keys each mapping accepts, for "expected one of …" on an unknown key. */
const KNOWN: Readonly<Record<string, readonly string[]>> = {
  "": Object.keys(Scenario.shape),
  source: ["ref", "what"],
  server: ["name", "command"],
  "messages[]": ["c2s", "s2c", "c2s_raw", "harmful", "note"],
};

/** The keys a mapping at `path` accepts; a message's depend on its kind. */
function knownKeys(path: KeyPath, value: unknown): readonly string[] {
  const at = pattern(path);
  if (at !== "messages[]" || value === null || typeof value !== "object") return KNOWN[at] ?? [];
  const kinds = MESSAGE_KEYS.filter((k) => Object.hasOwn(value, k));
  if (kinds.length !== 1) return KNOWN[at] ?? [];
  return kinds[0] === "s2c" ? ["s2c", "note"] : [kinds[0] as string, "harmful", "note"];
}

function pattern(path: KeyPath): string {
  return path
    .map((p) => (typeof p === "number" ? "[]" : String(p)))
    .join(".")
    .replace(/\.\[\]/g, "[]");
}

function problemsOf(tree: YamlTree, issues: readonly z.core.$ZodIssue[], at: KeyPath = []): Problem[] {
  const out: Problem[] = [];
  for (const issue of issues) {
    const path = [...at, ...issue.path.filter((p): p is string | number => typeof p !== "symbol")];
    if (issue.code === "unrecognized_keys") {
      for (const key of issue.keys) {
        out.push({
          line: lineFor(tree, [...path, key], true),
          key: formatKeyPath([...path, key]),
          expected: `one of ${knownKeys(path, valueAt(tree.value, path)).join(", ")}`,
          got: "an unknown key",
        });
      }
      continue;
    }
    const value = valueAt(tree.value, path);
    if (issue.code === "invalid_union" && value !== null && typeof value === "object") {
      // A message that names exactly one kind is judged as that kind, so the problem names
      // the key that is wrong rather than the whole message.
      const kinds = MESSAGE_KEYS.flatMap((k, i) => (Object.hasOwn(value, k) ? [i] : []));
      const branch = kinds.length === 1 ? issue.errors[kinds[0] as number] : undefined;
      if (branch !== undefined) {
        out.push(...problemsOf(tree, branch, path));
        continue;
      }
    }
    // The schema's own checks word both halves already ("expected …, got …").
    const own = issue.code === "custom" ? /^expected (.*), got (.*)$/.exec(issue.message) : null;
    out.push({
      line: lineFor(tree, path, value === undefined),
      key: formatKeyPath(path),
      expected: own?.[1] ?? EXPECTED[pattern(path)] ?? issue.message,
      got: own?.[2] ?? describeFound(value),
    });
  }
  return out;
}

/** The scenario in `text`, or every problem found in it (ordered by line). */
export function parseScenarioFile(
  text: string,
  file: string,
): { ok: true; scenario: Scenario; idLine: number } | { ok: false; problems: ConfigProblem[] } {
  const tree = readYamlTree(text, { empty: EXPECTED[""], aliases: true });
  const problems: Problem[] = tree.problems.map((p) => ({
    line: p.line,
    key: formatKeyPath(p.path),
    expected: p.expected,
    got: p.got,
  }));
  const parsed = tree.broken ? undefined : Scenario.safeParse(tree.value);
  if (parsed !== undefined && !parsed.success) {
    // A value the tree refused (an alias) is reported once, not again as "got nothing".
    const reported = new Set(problems.map((p) => p.key));
    for (const p of problemsOf(tree, parsed.error.issues))
      if (!(reported.has(p.key) && p.got === "nothing")) problems.push(p);
  }
  if (parsed?.success === true && problems.length === 0) {
    const expanded = withSecrets(parsed.data, tree);
    if (expanded.problems.length === 0)
      return { ok: true, scenario: expanded.scenario, idLine: lineFor(tree, ["id"], false) };
    problems.push(...expanded.problems);
  }
  const sorted = [...problems].sort((a, b) => (a.line ?? 0) - (b.line ?? 0));
  return { ok: false, problems: sorted.map((p) => ({ file, ...p })) };
}

/** The scenario with every `{{secret:…}}` in its messages made (fake-secrets.ts), seeded by its id. */
function withSecrets(scenario: Scenario, tree: YamlTree): { scenario: Scenario; problems: Problem[] } {
  const problems: Problem[] = [];
  const walk = (v: unknown, path: KeyPath): unknown => {
    if (typeof v === "string") {
      if (!v.includes("{{secret:")) return v;
      const r = expandSecrets(v, scenario.id);
      if (r.ok) return r.text;
      problems.push({
        line: lineFor(tree, path, false),
        key: formatKeyPath(path),
        expected: r.expected,
        got: r.got,
      });
      return v;
    }
    if (Array.isArray(v)) return v.map((x, i) => walk(x, [...path, i]));
    if (v !== null && typeof v === "object")
      return Object.fromEntries(
        Object.entries(v).map(([k, x]) => [walk(k, path) as string, walk(x, [...path, k])]),
      );
    return v;
  };
  const messages = scenario.messages.map(
    (m, i) => walk(m, ["messages", i]) as (typeof scenario.messages)[number],
  );
  return { scenario: { ...scenario, messages }, problems };
}
