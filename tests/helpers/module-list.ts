// A loader hook for black-box start-up tests: node --import <hook> lists every module file the
// process (and its worker threads) loads, one URL a line, in <list>.
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";

export function moduleListHook(dir: string): { hook: string; loaded: () => string[] } {
  const list = join(dir, "loaded.txt");
  const hook = join(dir, "hook.mjs");
  writeFileSync(
    hook,
    `import { register } from "node:module";\n` +
      `register("data:text/javascript," + encodeURIComponent(${JSON.stringify(
        `import { appendFileSync } from "node:fs";\n` +
          `export async function load(url, context, next) {\n` +
          `  if (url.startsWith("file:")) appendFileSync(${JSON.stringify(list)}, url + "\\n");\n` +
          `  return next(url, context);\n}\n`,
      )}));\n`,
  );
  writeFileSync(list, "");
  return { hook, loaded: () => readFileSync(list, "utf8").split("\n").filter(Boolean) };
}
