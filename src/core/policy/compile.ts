// From a validated policy document to a CompiledPolicy: every pattern and glob compiled once.
// Pattern problems are returned (not thrown) with their key paths so that the loader can give
// each its line and report them together with every other problem in the file.
import { type Level, type Verdict, VERDICT_RANK } from "../types.js";
import type { CompiledPattern, PathPattern, PathResolver, PlatformProfile } from "../paths/api.js";
import { compilePathPattern, type CompiledPathPattern } from "../paths/pattern.js";
import { createPatternSet, type PatternSet } from "../paths/pattern-set.js";
import { compileHostPattern, type HostPattern } from "../net/host-pattern.js";
import type { CommandsPolicy, CompiledPolicy, HostList, PathList } from "./api.js";
import { compilePrograms, type ProgramEntry } from "./catalogue.js";
import { GlobSet, globProblem } from "./globs.js";
import type { PolicyDocument } from "./schema.js";
import type { KeyPath } from "./yaml-tree.js";

export const PATH_LISTS: readonly PathList[] = ["deny", "confirm", "confirm_if_tainted", "deny_read"];
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

/** `commands.X_if_tainted` may only be stricter than `commands.X`. */
export function crossCheckCommands(commands: PolicyDocument["commands"]): PolicyProblem[] {
  const problems: PolicyProblem[] = [];
  if (commands === undefined) return problems;
  for (const [base, tainted] of [
    ["known", "known_if_tainted"],
    ["project", "project_if_tainted"],
    ["after_write", "after_write_if_tainted"],
    ["sends", "sends_if_tainted"],
  ] as const) {
    const b = commands[base];
    const t = commands[tainted];
    if (b !== undefined && t !== undefined && VERDICT_RANK[t] < VERDICT_RANK[b])
      problems.push({ path: ["commands", tainted], expected: `a verdict at least as strict as commands.${base} (${b})`, got: t });
  }
  return problems;
}

/** Rules between keys of `exec:` that the schema cannot express (given a valid exec section). */
export function crossCheck(exec: PolicyDocument["exec"]): PolicyProblem[] {
  const problems: PolicyProblem[] = [];
  if (exec === undefined) return problems;
  if ((exec.tools?.length ?? 0) > 0 && exec.action === undefined) {
    // No silent default: listing exec tools without saying what happens to them is a mistake.
    problems.push({
      path: ["exec", "action"],
      expected: "one of allow, confirm, deny (required when exec.tools lists tools)",
      got: "nothing",
    });
  } else if (exec.action === undefined && exec.action_if_tainted !== undefined) {
    problems.push({
      path: ["exec", "action"],
      expected: "one of allow, confirm, deny (required with exec.action_if_tainted)",
      got: "nothing",
    });
  }
  if (
    exec.action !== undefined &&
    exec.action_if_tainted !== undefined &&
    VERDICT_RANK[exec.action_if_tainted] < VERDICT_RANK[exec.action]
  ) {
    // Untrusted content in the session may only make the answer stricter.
    problems.push({
      path: ["exec", "action_if_tainted"],
      expected: `a verdict at least as strict as exec.action (${exec.action})`,
      got: exec.action_if_tainted,
    });
  }
  return problems;
}

/** A pattern that compiled but can match nothing on this profile (e.g. `%APPDATA%\…` on Linux). */
export interface InertPattern {
  list: PathList;
  text: string;
  why: string;
}

/**
 * CompiledPolicy plus what `effectgate check` can show: patterns that are inert on this
 * profile. They are legal (a policy may serve colleagues on other systems) but worth saying.
 */
export interface LoadedPolicy extends CompiledPolicy {
  /** `resolver` lets anchored patterns also match under the real path of their anchor. */
  matchPath(list: PathList, p: string, resolver?: PathResolver): string | undefined;
  matchBelow(list: PathList, dir: string, resolver?: PathResolver, anchoredOnly?: boolean): string | undefined;
  readonly inert: readonly InertPattern[];
}

function inertPatterns(lists: CompiledLists): InertPattern[] {
  return PATH_LISTS.flatMap((list) =>
    lists.paths[list].patterns.flatMap((pattern) => {
      const why = (pattern as Partial<CompiledPathPattern>).inert;
      return why === undefined ? [] : [{ list, text: pattern.body, why }];
    }),
  );
}

/** A CompiledPolicy over lists compiled by compileLists() from the same (valid) document. */
export function buildPolicy(
  doc: PolicyDocument,
  lists: CompiledLists,
  source: string,
  sha256: string,
): LoadedPolicy {
  const action: Verdict = doc.exec?.action ?? "allow";
  const mode: Level | undefined = doc.mode;
  return {
    source,
    sha256,
    mode,
    matchPath(list: PathList, p: string, resolver?: PathResolver): string | undefined {
      // `body` is the text exactly as the policy wrote it: what a decision cites.
      return lists.paths[list].first(p, resolver)?.body;
    },
    matchBelow(list: PathList, dir: string, resolver?: PathResolver, anchoredOnly?: boolean): string | undefined {
      return lists.paths[list].firstBelow(dir, resolver, anchoredOnly)?.body;
    },
    execGlob: (tool: string) => lists.execTools.first(tool),
    exec: { action, actionIfTainted: doc.exec?.action_if_tainted ?? action },
    taintSource(tool: string, server?: string): string | undefined {
      // An exclusion names a tool we know to be local; it wins over a broad source glob and
      // over its server being a source.
      if (lists.exclude.first(tool) !== undefined) return undefined;
      return lists.sources.first(tool) ?? (server === undefined ? undefined : lists.servers.first(server));
    },
    signatures: doc.taint?.signatures ?? true,
    envDeny: lists.envDeny,
    runsLater: {
      gitDirs: doc.runs_later?.git_dirs ?? "allow",
      pathFolders: doc.runs_later?.path_folders ?? "allow",
    },
    egress: {
      matchHost: (list: HostList, host: string, port?: number) =>
        lists.hosts[list].find((p) => p.test(host, port))?.text,
      // An absent egress section judges no egress (decision 0016: missing means empty).
      taintedNewHost: doc.egress?.tainted_new_host ?? "allow",
      secrets: doc.egress?.secrets ?? "allow",
    },
    inert: inertPatterns(lists),
    commands: commandsPolicy(doc.commands ?? {}, lists, {
      action,
      actionIfTainted: doc.exec?.action_if_tainted ?? action,
    }),
  };
}

const stricter = (a: Verdict, b: Verdict): Verdict => (VERDICT_RANK[a] >= VERDICT_RANK[b] ? a : b);

/**
 * The `commands:` section. A verdict it leaves out is the exec class action (as strict as
 * before this section existed); a tainted verdict left out is the untainted one, or stricter.
 */
function commandsPolicy(
  c: NonNullable<PolicyDocument["commands"]>,
  lists: CompiledLists,
  exec: { action: Verdict; actionIfTainted: Verdict },
): CommandsPolicy {
  const { action, actionIfTainted } = exec;
  // A base key left out is the exec class action; its tainted twin, the tainted exec action.
  const pair = (base: Verdict | undefined, tainted: Verdict | undefined, floor: Verdict): [Verdict, Verdict] => {
    const b = base ?? action;
    return [b, tainted ?? (base === undefined ? stricter(actionIfTainted, floor) : stricter(b, floor))];
  };
  const [known, knownIfTainted] = pair(c.known, c.known_if_tainted, "allow");
  const [project, projectIfTainted] = pair(c.project, c.project_if_tainted, "confirm");
  const [afterWrite, afterWriteIfTainted] = pair(c.after_write ?? stricter(action, "confirm"), c.after_write_if_tainted, "deny");
  const [sends, sendsIfTainted] = pair(c.sends, c.sends_if_tainted, "deny");
  return {
    known,
    knownIfTainted,
    project,
    projectIfTainted,
    afterWrite,
    afterWriteIfTainted,
    sends,
    sendsIfTainted,
    networkCode: c.network_code ?? "deny",
    codeSettings: c.code_settings ?? "deny",
    persistence: c.persistence ?? "deny",
    destructive: c.destructive ?? "deny",
    protectedRoot(p: string, resolver?: PathResolver): string | undefined {
      return lists.protectedRoots.first(p, resolver);
    },
    decidesWhatRuns: (p: string, resolver?: PathResolver) => lists.decidesWhatRuns.first(p, resolver)?.body,
    trustedHosts: new Set(c.trusted_hosts ?? ["loopback", "private"]),
    programs: lists.programs,
  };
}

/**
 * A document that was already validated (the shipped default, checked when the package was
 * built) compiled for `profile`, or undefined when anything in it is a problem on this profile:
 * the caller then loads the file itself, which reports each problem with its line.
 */
export function compileDocument(
  doc: PolicyDocument,
  source: string,
  sha256: string,
  profile: PlatformProfile,
): LoadedPolicy | undefined {
  const { lists, problems } = compileLists(doc, profile);
  if (problems.length > 0 || crossCheck(doc.exec).length > 0) return undefined;
  return buildPolicy(doc, lists, source, sha256);
}
