// The bench's 4 MiB of source code, shared by `npm run bench` and scan-cost.mjs.
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";

const MiB = 1024 * 1024;

/**
 * 4 MiB of source code: effectgate's own runtime dependencies, file after file in path order
 * (repeated if short). Quotes and line breaks to escape, words for every scanner to read: a file
 * an agent might write. The repeated letter of the other rows is the cheapest text to scan.
 * Undefined when no dependency is installed.
 */
export function codeText(root) {
  const files = [];
  const walk = (dir) => {
    for (const e of readdirSync(dir, { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : 1))) {
      const p = join(dir, e.name);
      if (e.isDirectory()) walk(p);
      else if (/\.(js|mjs|cjs|ts|md)$/.test(e.name)) files.push(p);
    }
  };
  // Dependencies that are installed (pino was one until decision 0075).
  for (const dep of ["yaml", "zod", "commander", "smol-toml", "pino"])
    if (existsSync(join(root, "node_modules", dep))) walk(join(root, "node_modules", dep));
  let text = files.map((f) => readFileSync(f, "utf8")).join("\n");
  if (text.length === 0) return undefined;
  while (text.length < 4 * MiB) text += text;
  return text.slice(0, 4 * MiB);
}
