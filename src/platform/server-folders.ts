// The folders a server names on its command line: a filesystem server takes its allowed folders
// there, and resolves a relative path against them rather than against its working folder.
import { statSync } from "node:fs";
import { join, resolve } from "node:path";
import type { PlatformProfile } from "../core/paths/api.js";

/**
 * Every word after the command (or the value of an `--option=value`) that names an existing
 * folder, `~` expanded as such servers do, made absolute from the server's working folder;
 * the working folder itself left out. More folders only make a relative path's verdict stricter.
 */
export function serverFolders(argv: readonly string[], profile: PlatformProfile): string[] {
  const found = new Set<string>();
  for (const word of argv.slice(1)) {
    const value = word.startsWith("-") ? word.slice(word.indexOf("=") + 1) : word;
    if (value === "" || value.startsWith("-")) continue;
    const expanded =
      value === "~" ? profile.home : /^~[\\/]/.test(value) ? join(profile.home, value.slice(2)) : value;
    const folder = resolve(profile.cwd, expanded);
    try {
      if (statSync(folder).isDirectory()) found.add(folder);
    } catch {
      // not a folder on this machine: a package name, a flag's value, a file
    }
  }
  found.delete(resolve(profile.cwd));
  return [...found];
}
