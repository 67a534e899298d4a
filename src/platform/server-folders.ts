// The folders a server names on its command line: a filesystem server takes its allowed folders
// there, and resolves a relative path against them rather than against its working folder.
import { statSync } from "node:fs";
import { join, resolve } from "node:path";
import type { PlatformProfile } from "../core/paths/api.js";

/**
 * The words of an argument that is itself a command line: `sh -c "exec server-filesystem ~"`
 * names its folder inside one argv word. Split like a shell would, roughly: quotes dropped,
 * operators and blanks split. Over-collecting is safe here (only existing folders are kept).
 */
function wordsIn(arg: string): string[] {
  if (!/[\s;|&()]/.test(arg)) return [arg];
  return [arg, ...arg.split(/[\s;|&()]+/).map((w) => w.replace(/["']/g, ""))];
}

/** `~`, `~/x`, `$HOME/x` and `${HOME}/x` as a server (or the shell that starts it) expands them. */
function expandHome(value: string, home: string): string {
  if (value === "~") return home;
  if (/^~[\\/]/.test(value)) return join(home, value.slice(2));
  const v = /^(\$HOME|\$\{HOME\})(?=$|[\\/])/.exec(value);
  return v === null ? value : join(home, value.slice(v[0].length));
}

/**
 * Every word after the command (or the value of an `--option=value`) that names an existing
 * folder, `~` expanded as such servers do, made absolute from the server's working folder;
 * the working folder itself left out. A word that is a command line of its own (`sh -c "…"`)
 * is read word by word too. More folders only make a relative path's verdict stricter.
 */
export function serverFolders(argv: readonly string[], profile: PlatformProfile): string[] {
  const found = new Set<string>();
  for (const word of argv.slice(1).flatMap(wordsIn)) {
    const value = word.startsWith("-") ? word.slice(word.indexOf("=") + 1) : word;
    if (value === "" || value.startsWith("-")) continue;
    const expanded = expandHome(value, profile.home);
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
