// Where a third-party suite keeps its case files: both suites put them under one folder of a
// checkout (cases/, scenarios/), and a folder of copied files works as well.
import { readdirSync, statSync } from "node:fs";
import { join } from "node:path";

/** The paths of the files under `dir`'s `sub` folder (or under `dir`) whose names pass `keep`, sorted. */
export function suiteFiles(dir, sub, keep) {
  const out = [];
  const walk = (d) => {
    for (const name of readdirSync(d).sort()) {
      const p = join(d, name);
      if (statSync(p).isDirectory()) walk(p);
      else if (keep(name)) out.push(p);
    }
  };
  const inner = join(dir, sub);
  walk(statSync(inner, { throwIfNoEntry: false })?.isDirectory() ? inner : dir);
  return out;
}
