import { readdirSync, readFileSync, statSync } from "node:fs";
import { join, relative } from "node:path";
import { describe, expect, it } from "vitest";

// DESIGN.md: commands → relay/log/clients → core; platform only at the edge.
const ROOT = join(import.meta.dirname, "..", "src");

function tsFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const full = join(dir, name);
    return statSync(full).isDirectory() ? tsFiles(full) : full.endsWith(".ts") ? [full] : [];
  });
}

function importsOf(file: string): string[] {
  const src = readFileSync(file, "utf8");
  const found: string[] = [];
  for (const m of src.matchAll(
    /(?:import|export)\s[^'"]*?from\s*["']([^"']+)["']|import\(\s*["']([^"']+)["']\s*\)/g,
  )) {
    found.push((m[1] ?? m[2]) as string);
  }
  return found;
}

const FORBIDDEN_IN_CORE =
  /^(node:)?(fs|fs\/promises|child_process|net|http|https|os|tls|dgram|worker_threads|process)$/;
const layerOf = (file: string) => relative(ROOT, file).split(/[\\/]/)[0] ?? "";

// Which top-level folders each layer may import from.
const ALLOWED: Record<string, string[]> = {
  core: ["core"],
  platform: ["platform", "core"],
  log: ["log", "core", "platform"],
  relay: ["relay", "core", "log", "platform"],
  clients: ["clients", "core", "platform"],
  commands: ["commands", "relay", "log", "clients", "core", "platform", "version.ts"],
};

describe("layering", () => {
  const files = tsFiles(ROOT);

  it("finds the source tree", () => {
    expect(files.length).toBeGreaterThan(5);
  });

  it("keeps src/core free of I/O, environment and clock", () => {
    const offenders: string[] = [];
    for (const file of files.filter((f) => layerOf(f) === "core")) {
      const src = readFileSync(file, "utf8");
      for (const spec of importsOf(file))
        if (FORBIDDEN_IN_CORE.test(spec)) offenders.push(`${file}: imports ${spec}`);
      if (/process\.(env|cwd|platform|argv|stdout|stderr)/.test(src))
        offenders.push(`${file}: touches process`);
      if (/Date\.now\(\)|new Date\(\)|performance\.now\(\)/.test(src))
        offenders.push(`${file}: reads the clock`);
    }
    expect(offenders).toEqual([]);
  });

  it("imports only along the allowed direction", () => {
    const offenders: string[] = [];
    for (const file of files) {
      const layer = layerOf(file);
      const allowed = ALLOWED[layer];
      if (!allowed) continue; // main.ts, version.ts
      for (const spec of importsOf(file)) {
        if (!spec.startsWith(".")) continue;
        const target = relative(ROOT, join(file, "..", spec));
        const targetLayer = target.split(/[\\/]/)[0] ?? "";
        const targetName = targetLayer.replace(/\.js$/, ".ts");
        if (!allowed.includes(targetLayer) && !allowed.includes(targetName)) {
          offenders.push(`${relative(ROOT, file)} (${layer}) imports ${spec} (${targetLayer})`);
        }
      }
    }
    expect(offenders).toEqual([]);
  });
});
