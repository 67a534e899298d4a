// Every list of a policy document compiled once: path patterns, host patterns, tool and server
// globs, the commands' folders and programs. Problems are returned with their key paths (not
// thrown), so that the loader can give each its line and report them all together.
import type { CompiledPattern, PathPattern, PathResolver, PlatformProfile } from "../paths/api.js";
import { compilePathPattern, type CompiledPathPattern } from "../paths/pattern.js";
import { createPatternSet, type PatternSet } from "../paths/pattern-set.js";
import { compileHostPattern, type HostPattern } from "../net/host-pattern.js";
import type { HostList, PathList } from "./api.js";
import { compilePrograms, type ProgramEntry } from "./catalogue.js";
import { GlobSet, globProblem } from "./globs.js";
import type { KeyPath } from "./yaml-tree.js";

// In the order the judge meets them on a write (src/core/judge/path-rules.ts), then reads.
export const PATH_LISTS: readonly PathList[] = ["deny", "deny_if_tainted", "confirm", "confirm_if_tainted", "deny_read"];
const HOST_LISTS: readonly HostList[] = ["deny_hosts", "confirm_hosts", "allow_hosts"];

export interface PolicyProblem {
  path: KeyPath;
  expected: string;
  got: string;
}

export interface CompiledLists {
  /** Each list in file order, indexed by name so a lookup need not test every pattern. */
  paths: Record<PathList, PatternSet>;
  execTools: GlobSet;
  sources: GlobSet;
  servers: GlobSet;
  exclude: GlobSet;
  envDeny: readonly string[];
  hosts: Record<HostList, HostPattern[]>;
  /** `egress.credential_hosts`: a variable's name → the hosts its token belongs to. */
  credentialHosts: Map<string, HostPattern[]>;
  protectedRoots: ProtectedRoots;
  decidesWhatRuns: PatternSet;
  programs: Map<string, ProgramEntry>;
}

export const section = (raw: unknown, key: string): unknown =>
  raw !== null && typeof raw === "object" && !Array.isArray(raw)
    ? (raw as Record<string, unknown>)[key]
    : undefined;

/** The string items of a list with their indexes; anything else was already reported by the schema. */
function stringItems(value: unknown): [string, number][] {
  if (!Array.isArray(value)) return [];
  return value.flatMap((item: unknown, i) =>
    typeof item === "string" ? [[item, i] as [string, number]] : [],
  );
}

function globList(raw: unknown, at: [string, string], problems: PolicyProblem[]): GlobSet {
  const good: string[] = [];
  for (const [glob, i] of stringItems(section(section(raw, at[0]), at[1]))) {
    const expected = globProblem(glob);
    if (expected === undefined) good.push(glob);
    else problems.push({ path: [...at, i], expected, got: JSON.stringify(glob) });
  }
  return new GlobSet(good);
}

// A pattern anchored the Windows way: a drive (`C:\`, `C:/`), a share (`\\server\share`), or a
// `%VAR%` / `$env:VAR` variable. Off Windows it names nothing, and the POSIX rules would read its
// `\` as part of a name (so `%APPDATA%\Claude\**` had `**` in the middle and was refused).
const WINDOWS_ANCHOR = /^(?:[A-Za-z]:[\\/]|\\\\|%[^%/\\]+%|\$env:[A-Za-z_]\w*)/i;
/** Only the shape is checked on Windows' rules; no variable is set, so nothing is expanded. */
const WINDOWS_SHAPE: PlatformProfile = { platform: "win32", home: "C:\\", env: {}, cwd: "C:\\" };

/**
 * A Windows-anchored pattern on another platform is inert (one policy may serve all three
 * systems, docs/policy.md), but only once Windows' own rules accept it: a mistake in it is
 * reported wherever the policy is loaded. Patterns this profile's rules accept (such as
 * `%APPDATA%/x/**`, inert here for its unset variable) are left to them.
 */
function compileForProfile(text: string, profile: PlatformProfile): CompiledPattern {
  const here = compilePathPattern(text, profile);
  const windows = profile.platform === "win32" ? null : WINDOWS_ANCHOR.exec(text.trim());
  if (here.ok || windows === null) return here;
  const onWindows = compilePathPattern(text, WINDOWS_SHAPE);
  if (!onWindows.ok) return onWindows;
  const never = (): boolean => false;
  const inert: CompiledPathPattern = {
    body: text,
    form: text.trim().endsWith("**") ? "subtree" : "file",
    inert: `a Windows path starting ${windows[0]}: names nothing on ${profile.platform}`,
    test: never,
    below: never,
  };
  return { ok: true, pattern: inert };
}

/**
 * Compile every list of `raw` (a policy document, validated or not: items that are not strings
 * are skipped here because the schema reports them) on `profile`.
 */
export function compileLists(
  raw: unknown,
  profile: PlatformProfile,
): { lists: CompiledLists; problems: PolicyProblem[] } {
  const problems: PolicyProblem[] = [];
  const paths = {} as Record<PathList, PatternSet>;
  for (const list of PATH_LISTS) {
    const compiled: PathPattern[] = [];
    for (const [text, i] of stringItems(section(section(raw, "paths"), list))) {
      const c = compileForProfile(text, profile);
      if (c.ok) compiled.push(c.pattern);
      else problems.push({ path: ["paths", list, i], expected: c.expected, got: JSON.stringify(text) });
    }
    paths[list] = createPatternSet(compiled, profile.platform);
  }
  const hosts = {} as Record<HostList, HostPattern[]>;
  for (const list of HOST_LISTS) {
    hosts[list] = [];
    for (const [text, i] of stringItems(section(section(raw, "egress"), list))) {
      const c = compileHostPattern(text);
      if (c.ok) hosts[list].push(c.pattern);
      else problems.push({ path: ["egress", list, i], expected: c.expected, got: JSON.stringify(text) });
    }
  }
  // `credential_hosts: {GITHUB_TOKEN: [api.github.com]}`: where each named token may go.
  const credentialHosts = new Map<string, HostPattern[]>();
  const byName = section(section(raw, "egress"), "credential_hosts");
  if (byName !== null && typeof byName === "object" && !Array.isArray(byName))
    for (const name of Object.keys(byName as Record<string, unknown>)) {
      const patterns: HostPattern[] = [];
      for (const [text, i] of stringItems(section(byName, name))) {
        const c = compileHostPattern(text);
        if (c.ok) patterns.push(c.pattern);
        else problems.push({ path: ["egress", "credential_hosts", name, i], expected: c.expected, got: JSON.stringify(text) });
      }
      credentialHosts.set(name, patterns);
    }
  const commandList = (key: string): PatternSet => {
    const compiled: PathPattern[] = [];
    for (const [text, i] of stringItems(section(section(raw, "commands"), key))) {
      const c = compileForProfile(text, profile);
      if (c.ok) compiled.push(c.pattern);
      else problems.push({ path: ["commands", key, i], expected: c.expected, got: JSON.stringify(text) });
    }
    return createPatternSet(compiled, profile.platform);
  };
  const rawPrograms = section(section(raw, "commands"), "programs");
  const programs =
    rawPrograms === undefined ? { entries: new Map<string, ProgramEntry>(), problems: [] } : compilePrograms(rawPrograms, ["commands", "programs"]);
  problems.push(...programs.problems);
  const lists: CompiledLists = {
    protectedRoots: protectedRoots(raw, profile, problems),
    decidesWhatRuns: commandList("decides_what_runs"),
    programs: programs.entries,
    paths,
    hosts,
    credentialHosts,
    execTools: globList(raw, ["exec", "tools"], problems),
    sources: globList(raw, ["taint", "sources"], problems),
    servers: globList(raw, ["taint", "servers"], problems),
    exclude: globList(raw, ["taint", "exclude"], problems),
    envDeny: globList(raw, ["env", "deny"], problems).globs,
  };
  return { lists, problems };
}

/** Folders that are destructive to remove or change as a whole: `p` is one, or lies above one. */
export interface ProtectedRoots {
  first(p: string, resolver?: PathResolver): string | undefined;
}

/**
 * `commands.protected_roots`: anchored folders (`/`, `~`, `~/Documents`, `/etc`). A POSIX folder
 * names nothing on Windows (inert there, like a Windows anchor elsewhere); a name pattern is refused,
 * since any project may hold a folder of that name.
 */
function protectedRoots(raw: unknown, profile: PlatformProfile, problems: PolicyProblem[]): ProtectedRoots {
  const tests: Array<{ body: string; is: (p: string, r?: PathResolver) => boolean }> = [];
  for (const [text, i] of stringItems(section(section(raw, "commands"), "protected_roots"))) {
    const t = text.trim();
    if (t.startsWith("**")) {
      problems.push({ path: ["commands", "protected_roots", i], expected: "an anchored folder (/, ~, ~/Documents, /etc)", got: JSON.stringify(text) });
      continue;
    }
    if (t.startsWith("/") && profile.platform === "win32") continue;
    if (t === "/") {
      tests.push({ body: text, is: (p) => p === "/" });
      continue;
    }
    const c = compileForProfile(t, profile);
    if (!c.ok) {
      problems.push({ path: ["commands", "protected_roots", i], expected: c.expected, got: JSON.stringify(text) });
      continue;
    }
    const pattern = c.pattern as CompiledPathPattern;
    tests.push({ body: text, is: (p, r) => pattern.test(p, r) || pattern.below(p, r) });
  }
  return { first: (p, r) => tests.find((t) => t.is(p, r))?.body };
}
