import { readFileSync, statSync } from "node:fs";
import { dirname, isAbsolute, join, resolve } from "node:path";
import type { ConfiguredRemotes } from "../core/types.js";

// The machine facts behind `git push origin` and `ssh alias` (decision 0128): the files are
// read here, when a command names a remote or a host, and their text is read in core
// (src/core/commands/configured-remotes.ts). Nothing is cached: a config the session changed
// is read as it is now.

/** Larger config files are not read: their remotes are unknown, which is not allowed. */
const MAX_BYTES = 1 << 20;

function readSmall(path: string): string | undefined {
  try {
    if (statSync(path).size > MAX_BYTES) return undefined;
    return readFileSync(path, "utf8");
  } catch {
    return undefined;
  }
}

/** The config file of the repository `dir` is in: `.git/config`, or where a `.git` file points. */
function repositoryConfig(dir: string): string | undefined {
  for (let d = dir, i = 0; i < 100; i++) {
    const dotGit = join(d, ".git");
    try {
      const st = statSync(dotGit);
      if (st.isDirectory()) return readSmall(join(dotGit, "config"));
      // A worktree or submodule: `gitdir: PATH`; a worktree's config is in its common folder.
      const gitdir = /^gitdir:\s*(.+?)\s*$/m.exec(readSmall(dotGit) ?? "")?.[1];
      if (gitdir === undefined) return undefined;
      const at = isAbsolute(gitdir) ? gitdir : resolve(d, gitdir);
      const common = readSmall(join(at, "commondir"))?.trim();
      return readSmall(join(common === undefined ? at : resolve(at, common), "config"));
    } catch {
      // no .git here: look in the folder above
    }
    const up = dirname(d);
    if (up === d) return undefined;
    d = up;
  }
  return undefined;
}

/** This machine's remotes, for a server started in `cwd` by a user whose home is `home`. */
export function machineRemotes(home: string, cwd: string): ConfiguredRemotes {
  const place = (spelled: string | undefined): string => {
    if (spelled === undefined) return cwd;
    const expanded = spelled === "~" || spelled.startsWith("~/") ? join(home, spelled.slice(1)) : spelled;
    return resolve(cwd, expanded);
  };
  return {
    gitConfig: (spelled) => repositoryConfig(place(spelled)),
    sshConfig: () => readSmall(join(home, ".ssh", "config")),
  };
}
