// The bash grammar and the shipped catalogue, loaded together on first need: a relay in front of
// a server with no exec tool never loads either (docs/decisions/0078-shell-grammar.md).
// Both are imported when first needed: the catalogue's reader brings the YAML parser and the
// schema library, which a relay's start path does without (docs/decisions/0107-start-up-path.md).
import type { ShellKit } from "../core/policy/api.js";

let kit: ShellKit | undefined;
let loading: Promise<ShellKit> | undefined;

/** Loads the kit once per process; a failed load is tried again by the next caller. */
export function loadShellKit(): Promise<ShellKit> {
  if (kit !== undefined) return Promise.resolve(kit);
  loading ??= (async () => {
    const [{ loadShellParser }, { readCatalogue }] = await Promise.all([
      import("../platform/shell-parser.js"),
      import("./catalogue-file.js"),
    ]);
    const parser = await loadShellParser();
    const { programs, variables } = readCatalogue();
    kit = { parser, programs, variables };
    return kit;
  })().catch((err: unknown) => {
    loading = undefined;
    throw err;
  });
  return loading;
}

/** The kit if it is loaded, else undefined (never starts a load). */
export function loadedShellKit(): ShellKit | undefined {
  return kit;
}
