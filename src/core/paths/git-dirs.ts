import type { Platform } from "../types.js";
import type { PathResolver } from "./api.js";
import { foldName } from "./fold.js";
import { joinPath, parsePath } from "./lexical.js";

// Which writes git would later read as configuration or hooks (docs/decisions/0067). Git does
// not only read `.git/config`: its discovery (setup.c) takes a `.git` folder, or a `.git` FILE
// that says `gitdir: X`, or any folder that holds HEAD, objects/ and refs/ (a bare repository,
// or one whose `commondir` names the folder that holds objects/ and refs/). From the git
// directory it reads `config` (from the common directory), `config.worktree`, and runs `hooks/`.
// Submodules keep theirs in `.git/modules/<name>/`, worktrees in `.git/worktrees/<name>/`.
// So a write is git configuration when it creates the entry that starts discovery (`.git`), or
// writes config, config.worktree, commondir or hooks/ into a folder git takes as a git directory,
// or writes the HEAD, objects/ or refs/ that makes a folder holding such files one. The last rule
// makes the order of the writes irrelevant: whichever write completes the set is the one judged.

/** Files git reads as configuration, or that send it to another folder's configuration. */
const CONFIG_FILES = new Set(["config", "config.worktree", "commondir"]);
/** The folder of scripts git runs. */
const HOOKS = "hooks";
export interface GitWrite {
  /** The folder git would take as its git directory. */
  gitDir: string;
  /** Why, for the decision's reason. */
  why: string;
}

export interface GitFacts {
  resolver: PathResolver;
  /**
   * Whether a path (absolute, in the profile's spelling) or something below it was written by a
   * call already let through in this session or by another effect of the same call: the disk
   * does not show it yet, but git will see it.
   */
  planted?: (absolute: string) => boolean;
  /** Judge by names alone, asking nothing of the disk (a folder moved into place as a whole). */
  lexicalOnly?: boolean;
}

/**
 * Whether `names` (folded) at index `i` is a folder git keeps as a git directory by its place:
 * `.git` itself, a submodule's `.git/modules/<name…>` (names may hold `/`, modules nest), or a
 * worktree's `.git/worktrees/<name>`.
 */
function namedGitDir(names: readonly string[], i: number): boolean {
  if (names[i] === ".git") return true;
  for (let j = 0; j + 2 <= i; j++) {
    if (names[j] !== ".git") continue;
    if (names[j + 1] === "modules") return true;
    if (names[j + 1] === "worktrees" && i === j + 2) return true;
  }
  return false;
}

/** Some letters of a name below in a lower-cased path (`config` covers `config.worktree`). */
const GIT_NAME_HINT = /\.git|head|objects|refs|config|commondir|hooks/;

/**
 * Whether `absolute` may hold a name git's discovery cares about (`.git`, HEAD, objects, refs,
 * config, config.worktree, commondir, hooks) in any platform's folding; false lets a caller skip
 * splitting it, as most written paths may. Lower-casing the whole string lower-cases each name as
 * foldName does, and the one character that NFC or lower-casing turns into one of their letters,
 * the Kelvin sign, lower-cases to `k` here too.
 */
export function mayHoldGitName(absolute: string): boolean {
  return GIT_NAME_HINT.test(absolute.toLowerCase());
}

/**
 * The git directory a write to `absolute` (canonical, absolute) would configure, or undefined.
 * Disk facts come from `facts.resolver.exists` (without it, only names count).
 */
export function gitConfigWrite(absolute: string, platform: Platform, facts: GitFacts): GitWrite | undefined {
  // Every write of every call comes here; most name nothing of git's.
  if (!mayHoldGitName(absolute)) return undefined;
  const parsed = parsePath(absolute, platform);
  if (!parsed.ok || parsed.parsed.kind !== "absolute") return undefined;
  const { root } = parsed.parsed;
  const raw = parsed.parsed.segments.filter((s) => s !== "" && s !== ".");
  const names = raw.map((s) => foldName(s, platform));
  const n = names.length;
  if (n === 0) return undefined;
  const fold = (s: string): string => foldName(s, platform);
  if (names[n - 1] === ".git")
    return {
      gitDir: absolute,
      why: "git's discovery starts at a .git entry: a .git folder is read as the git directory, and a .git file saying gitdir: X sends git to X's config and hooks",
    };
  const at = (i: number, name?: string): string =>
    joinPath(root, name === undefined ? raw.slice(0, i + 1) : [...raw.slice(0, i + 1), name], platform);
  const present = (i: number, name: string): boolean => {
    if (facts.lexicalOnly === true) return false;
    const p = at(i, name);
    return facts.resolver.exists?.(p) === true || facts.planted?.(p) === true;
  };
  // The deepest folder first: `/x/sub/hooks/config` is judged for /x/sub/hooks, then /x/sub.
  for (let i = n - 2; i >= -1; i--) {
    const entry = names[i + 1] as string;
    const last = i + 1 === n - 1;
    const configures = (CONFIG_FILES.has(entry) && last) || entry === HOOKS;
    const marks = (entry === fold("HEAD") && last) || entry === "objects" || entry === "refs";
    if (!configures && !marks) continue;
    const dir = i < 0 ? root : at(i);
    const named = i >= 0 && namedGitDir(names, i);
    if (configures && named)
      return {
        gitDir: dir,
        why: `${dir} is a git directory by its place, and git reads ${raw[i + 1]} there`,
      };
    if (named || facts.lexicalOnly === true) continue; // HEAD, objects and refs of a git directory are its data
    const has = (name: string, added: string): boolean => fold(name) === added || present(i, name);
    const complete = (added: string): boolean =>
      has("HEAD", added) && ((has("objects", added) && has("refs", added)) || has("commondir", added));
    if (configures) {
      if (complete(entry))
        return {
          gitDir: dir,
          why: `${dir} holds HEAD and objects and refs (or a commondir), so git takes it as a git directory and reads ${raw[i + 1]} there`,
        };
      continue;
    }
    if (complete("") || !complete(entry)) continue;
    const configured = [...CONFIG_FILES, HOOKS].find((f) => present(i, f));
    if (configured !== undefined)
      return {
        gitDir: dir,
        why: `writing ${raw[i + 1]} completes HEAD, objects and refs in ${dir}, which holds ${configured}: git would take it as a git directory and read its ${configured}`,
      };
  }
  return undefined;
}
