// From a validated policy document to a CompiledPolicy over its compiled lists (compile-lists.ts).
import { type Level, type Verdict, VERDICT_RANK } from "../types.js";
import type { PathResolver, PlatformProfile } from "../paths/api.js";
import type { CompiledPathPattern } from "../paths/pattern.js";
import type { CommandsPolicy, CompiledPolicy, HostList, PathList } from "./api.js";
import { compileLists, PATH_LISTS, type CompiledLists } from "./compile-lists.js";
import { crossCheck } from "./cross-check.js";
import type { PolicyDocument } from "./schema.js";

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
    askDialog: doc.ask?.dialog ?? "off",
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
      credentialHost: (variable: string, host: string, port?: number) =>
        lists.credentialHosts.get(variable)?.find((p) => p.test(host, port))?.text,
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
