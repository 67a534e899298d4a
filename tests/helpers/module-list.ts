// A loader hook for black-box start-up tests: node --import <hook> lists every module file the
// process (and its worker threads) loads, one URL a line, in <list>.
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";

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

const ROOT = join(import.meta.dirname, "..", "..");

/**
 * The modules behind a list of loaded files. dist/ is one bundle (decision 0147): a chunk holds
 * many of tsc's modules (build/…) and packages (node_modules/…). Each loaded chunk is replaced
 * by what it holds, read from the bundler's record (build/bundle-meta.json), so a test can still
 * say which modules a start loaded. Files outside dist/ (external packages) are kept as they are.
 */
export function bundledModules(loaded: string[]): string[] {
  const meta = JSON.parse(readFileSync(join(ROOT, "build", "bundle-meta.json"), "utf8")) as {
    outputs: Record<string, { inputs: Record<string, unknown> }>;
  };
  const dist = pathToFileURL(join(ROOT, "dist")).href + "/";
  return loaded.flatMap((url) => {
    if (!url.startsWith(dist)) return [url];
    const output = meta.outputs[`dist/${url.slice(dist.length)}`];
    if (output === undefined) throw new Error(`${url}: not in build/bundle-meta.json (a stale build?)`);
    return Object.keys(output.inputs).map((input) => pathToFileURL(join(ROOT, input)).href);
  });
}
