import { readdirSync, readFileSync, statSync } from "node:fs";
import { join, relative } from "node:path";
import { describe, expect, it } from "vitest";

// Every exported function, constant or class in src/ is imported somewhere else: by src/, by a
// script (scripts/ loads build/ files), or by a test whose subject it is. An export nothing uses
// is dead code a successor must read for nothing (issue 18). Types are left out: an exported
// type names a signature. A test counts as a user only where the export is its subject.
const ROOT = join(import.meta.dirname, "..");

function files(dir: string, ext: RegExp): string[] {
  return readdirSync(dir).flatMap((name) => {
    const full = join(dir, name);
    return statSync(full).isDirectory() ? files(full, ext) : ext.test(name) ? [full] : [];
  });
}

const VALUE_EXPORT = /^export (?:async )?(?:function\*?|const|let|class|abstract class) ([A-Za-z_$][\w$]*)/gm;

/** `name@file` of each value export in `sources` that no other file of `users` names. */
function unusedExports(sources: Map<string, string>, users: Map<string, string>): string[] {
  const out: string[] = [];
  for (const [file, text] of sources)
    for (const m of text.matchAll(VALUE_EXPORT)) {
      const name = m[1] as string;
      // A schema constant that also names its type (`export type X = z.infer<typeof X>`).
      if (new RegExp(`^export type ${name}\\b`, "m").test(text)) continue;
      const word = new RegExp(`\\b${name.replace(/\$/g, "\\$")}\\b`);
      const used = [...users].some(([other, t]) => other !== file && word.test(t));
      if (!used) out.push(`${name}@${relative(ROOT, file)}`);
    }
  return out;
}

const read = (list: string[]) => new Map(list.map((f) => [f, readFileSync(f, "utf8")]));

describe("exports", () => {
  const src = read(files(join(ROOT, "src"), /\.ts$/));
  const users = new Map([
    ...src,
    ...read(files(join(ROOT, "tests"), /\.(ts|mjs)$/)),
    ...read(files(join(ROOT, "scripts"), /\.(mjs|ts)$/)),
  ]);

  it("finds the sources, and flags a planted export nobody uses (the check is not vacuous)", () => {
    expect(src.size).toBeGreaterThan(100);
    // Built from parts, so that this file does not name it whole.
    const name = ["never", "Imported", "Anywhere"].join("");
    const file = join(ROOT, "src", "planted.ts");
    const planted = new Map([[file, `export function ${name}() {}\n`]]);
    expect(unusedExports(planted, new Map([...users, ...planted]))).toEqual([`${name}@src/planted.ts`]);
  });

  it("every exported function, constant and class in src/ is used outside its file", () => {
    // main.ts is the entry point; each subcommand's `run` is loaded by name from main.ts.
    const entry = [...src].filter(([f]) => !f.endsWith(join("src", "main.ts")));
    expect(unusedExports(new Map(entry), users)).toEqual([]);
  });
});
