import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";

// ARCHITECTURE.md names a file or folder at every step; a name that no longer exists sends a
// newcomer nowhere. Every `src/…`, `tests/…`, `docs/…` or `scripts/…` path it quotes, and every
// folder of its layer picture, must exist.
const ROOT = join(import.meta.dirname, "..");
const TEXT = readFileSync(join(ROOT, "ARCHITECTURE.md"), "utf8");

/** Paths quoted in backticks, and the folders and files of the fenced picture. */
function namedPaths(text: string): string[] {
  const quoted = [...text.matchAll(/`((?:src|tests|docs|scripts)\/[^`\s]*)`/g)].map((m) => m[1] as string);
  const picture = (text.match(/```\n([\s\S]*?)```/)?.[1] ?? "").split("\n");
  const drawn: string[] = [];
  let parent = "";
  for (const line of picture) {
    const top = /^(src\/\S+)/.exec(line)?.[1];
    if (top !== undefined) {
      drawn.push(top);
      parent = top.endsWith("/") ? top : "";
      continue;
    }
    // Indented lines name folders of the one above: `session/`, or `framing/ json/ text/`.
    const words = /^\s+((?:[\w-]+\/\s+)+)/.exec(line)?.[1];
    if (words !== undefined && parent !== "")
      for (const w of words.trim().split(/\s+/)) drawn.push(`${parent}${w}`);
  }
  return [...new Set([...quoted, ...drawn])];
}

describe("ARCHITECTURE.md", () => {
  const named = namedPaths(TEXT);

  it("names many paths, and a made-up one is caught (the check is not vacuous)", () => {
    expect(named.length).toBeGreaterThan(50);
    expect(named).toContain("src/core/wire/client-frame.ts");
    expect(named).toContain("src/relay/session/");
    expect(named).toContain("src/core/framing/");
    expect(namedPaths("see `src/core/nowhere.ts`").filter((p) => !existsSync(join(ROOT, p)))).toEqual([
      "src/core/nowhere.ts",
    ]);
  });

  it("every path it names exists", () => {
    // `tests/relay/*.test.ts` stands for files of a folder: the folder must exist.
    const exists = (p: string): boolean =>
      existsSync(join(ROOT, p.includes("*") ? p.replace(/[^/]*\*.*$/, "") : p));
    expect(named.filter((p) => !exists(p))).toEqual([]);
  });

  it("every folder of src/core and src/relay is in its picture", () => {
    for (const layer of ["core", "relay"])
      for (const entry of listFolders(join(ROOT, "src", layer)))
        expect(named, `src/${layer}/${entry}/`).toContain(`src/${layer}/${entry}/`);
  });
});

function listFolders(dir: string): string[] {
  return readdirSync(dir).filter((n) => statSync(join(dir, n)).isDirectory());
}
