// Reading a catalogue file (policy/commands.yaml): YAML with lines, then compilePrograms. Every
// problem is reported at once, one line each, as for a policy (`file:line: key: expected X, got Y`).
import { ConfigError, type ConfigProblem } from "../errors.js";
import { compilePrograms, compileVariables, type ProgramEntry } from "./catalogue.js";
import { formatKeyPath, lineFor, readYamlTree } from "./yaml-tree.js";

const isRecord = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === "object" && !Array.isArray(v);

export interface CatalogueFile {
  programs: Map<string, ProgramEntry>;
  variables: Map<string, "command" | "file" | "options">;
}

/** The entries of a catalogue file; throws ConfigError naming every problem, in line order. */
export function loadCatalogueFile(text: string, source: string): CatalogueFile {
  const tree = readYamlTree(text, { empty: "a mapping with version: 1 and programs" });
  const problems: Omit<ConfigProblem, "file">[] = tree.problems.map((p) => ({
    line: p.line,
    key: formatKeyPath(p.path),
    expected: p.expected,
    got: p.got,
  }));
  let entries = new Map<string, ProgramEntry>();
  let variables = new Map<string, "command" | "file" | "options">();
  if (!tree.broken) {
    const doc = tree.value;
    if (!isRecord(doc)) problems.push({ line: 1, key: "(document)", expected: "a mapping with version: 1 and programs", got: "something else" });
    else {
      for (const key of Object.keys(doc))
        if (key !== "version" && key !== "programs" && key !== "variables")
          problems.push({ line: lineFor(tree, [key], true), key, expected: "one of version, programs, variables", got: "an unknown key" });
      if (doc["version"] !== 1)
        problems.push({ line: lineFor(tree, ["version"], doc["version"] === undefined), key: "version", expected: "1", got: JSON.stringify(doc["version"] ?? null) });
      const compiled = compilePrograms(doc["programs"], ["programs"]);
      entries = compiled.entries;
      const vars = compileVariables(doc["variables"] ?? {}, ["variables"]);
      variables = vars.variables;
      for (const p of [...compiled.problems, ...vars.problems])
        problems.push({ line: lineFor(tree, p.path, p.got === "an unknown key"), key: formatKeyPath(p.path), expected: p.expected, got: p.got });
    }
  }
  if (problems.length > 0)
    throw new ConfigError([...problems].sort((a, b) => (a.line ?? 0) - (b.line ?? 0)).map((p) => ({ file: source, ...p })));
  return { programs: entries, variables };
}
