// Loading the bash grammar (tree-sitter-bash's WebAssembly build, run by web-tree-sitter). It is
// loaded on first use only: a relay in front of a server with no exec tool never pays for it
// (docs/decisions/0078-shell-grammar.md). The load is asynchronous; judging is not, so callers
// await `loadShellParser()` once before they judge a command.
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import type { ShellParser, SyntaxTree } from "../core/shell/syntax.js";

let loading: Promise<ShellParser> | undefined;
let loaded: ShellParser | undefined;

const require = createRequire(import.meta.url);

async function load(): Promise<ShellParser> {
  const { Parser, Language } = await import("web-tree-sitter");
  await Parser.init({
    // The runtime's own .wasm sits beside its JavaScript; hand over its bytes so that nothing is fetched.
    wasmBinary: readFileSync(require.resolve("web-tree-sitter/web-tree-sitter.wasm")),
  } as object);
  const bash = await Language.load(readFileSync(require.resolve("tree-sitter-bash/tree-sitter-bash.wasm")));
  const parser = new Parser();
  parser.setLanguage(bash);
  return {
    parse(text: string): SyntaxTree | undefined {
      const tree = parser.parse(text);
      if (tree === null) return undefined;
      return { rootNode: tree.rootNode, release: () => tree.delete() };
    },
  };
}

/** The bash parser, loaded once per process (a failed load is retried by the next caller). */
export function loadShellParser(): Promise<ShellParser> {
  if (loaded !== undefined) return Promise.resolve(loaded);
  loading ??= load().then(
    (p) => (loaded = p),
    (err: unknown) => {
      loading = undefined;
      throw err;
    },
  );
  return loading;
}

/** The parser if it is already loaded, else undefined (never starts a load). */
export function loadedShellParser(): ShellParser | undefined {
  return loaded;
}
