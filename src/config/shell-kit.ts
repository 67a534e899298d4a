// The bash grammar and the shipped catalogue, loaded together on first need: a relay in front of
// a server with no exec tool never loads either (docs/decisions/0078-shell-grammar.md).
import type { ShellKit } from "../core/policy/api.js";
import { loadShellParser } from "../platform/shell-parser.js";
import { readCatalogue } from "./catalogue-file.js";

let kit: ShellKit | undefined;
let loading: Promise<ShellKit> | undefined;

/** Loads the kit once per process; a failed load is tried again by the next caller. */
export function loadShellKit(): Promise<ShellKit> {
  if (kit !== undefined) return Promise.resolve(kit);
  loading ??= (async () => {
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
