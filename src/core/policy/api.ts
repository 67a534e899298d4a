import type { ConfiguredRemotes, Level, Verdict } from "../types.js";
import type { PathResolver, PlatformProfile } from "../paths/api.js";
import type { OwnPath } from "../paths/own-paths.js";
import type { ShellParser } from "../shell/syntax.js";
import type { ProgramEntry } from "./catalogue.js";

/** The path lists of a policy; `deny_read` is judged on reads, the others on writes and exec. */
export type PathList = "deny" | "deny_if_tainted" | "confirm" | "confirm_if_tainted" | "deny_read";

/** The host lists of a policy's `egress:` section. */
export type HostList = "deny_hosts" | "confirm_hosts" | "allow_hosts";

/** A policy after loading: patterns compiled once, ready for many decisions. */
export interface CompiledPolicy {
  /** `default` or the file path it was loaded from. */
  source: string;
  /** SHA-256 of the policy file's bytes. */
  sha256: string;
  /** The policy's `mode:`, if it sets one. */
  mode: Level | undefined;
  /**
   * `ask.dialog`: whether a question the client cannot be asked in its chat may be put in a
   * desktop dialog (`auto`), or never (`off`, the default; decision 0126).
   */
  askDialog: "auto" | "off";
  /**
   * The first pattern of `list` matching the absolute path `p` on this profile, or undefined.
   * Matching is per path segment and folds case exactly where the profile's file system does.
   * With `resolver`, an anchored pattern also matches below the real path of its anchor (a
   * symlinked `~/.ssh` still guards the folder it points to).
   */
  matchPath(list: PathList, p: string, resolver?: PathResolver): string | undefined;
  /**
   * The first pattern of `list` that could match a path strictly below the folder `dir` because
   * of `dir` itself: an anchor at or below it (`~/.config/systemd/user/**` below `~/.config`), or
   * a name sequence that can begin with dir's last names (the `.git/hooks` name pattern below `/x/.git`).
   * Never a name any folder could hold (the `.env` name is not below `/x/src`). For moves and removals;
   * `anchoredOnly` (removals) skips name patterns, which any project's folder may hold.
   */
  matchBelow(list: PathList, dir: string, resolver?: PathResolver, anchoredOnly?: boolean): string | undefined;
  /** The exec-class glob matching a tool name (case-insensitive), or undefined. */
  execGlob(tool: string): string | undefined;
  exec: { action: Verdict; actionIfTainted: Verdict };
  /** The taint-source glob matching the tool or server name, unless excluded; else undefined. */
  taintSource(tool: string, server?: string): string | undefined;
  /** Whether content signatures may raise taint. */
  signatures: boolean;
  /** Names of variables to remove from the server's environment (globs, case-insensitive). */
  envDeny: readonly string[];
  /**
   * Verdicts for writes found by a model rather than a pattern (`runs_later:`): what git reads as
   * configuration or hooks wherever its discovery finds it, and files in a folder on the
   * server's PATH. `allow` when the policy does not say.
   */
  runsLater: { gitDirs: Verdict; pathFolders: Verdict };
  /** Where calls may send data (docs/decisions/0090-egress-judgement.md). */
  egress: {
    /** The first pattern of `list` matching a canonical host (and port), as the policy wrote it. */
    matchHost(list: HostList, host: string, port?: number): string | undefined;
    /**
     * The pattern of `egress.credential_hosts` under `variable` that a host matches: a token sent
     * to the service it belongs to (`$GITHUB_TOKEN` to api.github.com, decision 0137).
     */
    credentialHost(variable: string, host: string, port?: number): string | undefined;
    /** Verdict for a tainted session sending to a destination it has not sent to before. */
    taintedNewHost: Verdict;
    /** Verdict for a call that would send a credential or bytes of a secret file read this session. */
    secrets: Verdict;
  };
  /**
   * How commands are judged by what their programs do (`commands:`). A verdict the policy does
   * not set is the exec class action (network code, code settings, persistence and destructive
   * commands: deny), so a policy written before this section judges as strictly as it did.
   */
  commands: CommandsPolicy;
}

/** Verdicts for what running a program amounts to (docs/decisions/0080-command-verdicts.md). */
export interface CommandsPolicy {
  known: Verdict;
  knownIfTainted: Verdict;
  project: Verdict;
  projectIfTainted: Verdict;
  afterWrite: Verdict;
  afterWriteIfTainted: Verdict;
  sends: Verdict;
  sendsIfTainted: Verdict;
  networkCode: Verdict;
  codeSettings: Verdict;
  persistence: Verdict;
  destructive: Verdict;
  /** The pattern of `commands.protected_roots` that `p` is, or lies below as a folder (`~` for `/home`), if any. */
  protectedRoot(p: string, resolver?: PathResolver): string | undefined;
  /** The pattern of `commands.decides_what_runs` that `p` matches, if any. */
  decidesWhatRuns(p: string, resolver?: PathResolver): string | undefined;
  /** Host classes whose answers do not taint: loopback, private, link-local. */
  trustedHosts: ReadonlySet<string>;
  /** The policy's own catalogue entries, on top of the shipped catalogue. */
  programs: ReadonlyMap<string, ProgramEntry>;
}

/** What judging a parsed command needs beyond the policy: the grammar and the shipped catalogue. */
export interface ShellKit {
  parser: ShellParser;
  programs: ReadonlyMap<string, ProgramEntry>;
  variables: ReadonlyMap<string, "command" | "file" | "options">;
}

/** Everything the session judge needs to canonicalise paths for one server. */
export interface JudgeEnvironment {
  profile: PlatformProfile;
  resolver: PathResolver;
  /** Git remotes and ssh aliases of this machine; without it, a bare remote name names no host. */
  remotes?: ConfiguredRemotes;
  /** The server's name (`--name`), for server-scoped taint sources. */
  server?: string;
  /**
   * Folders other than `profile.cwd` that the server may resolve a relative path against: a
   * filesystem server resolves one against its allowed folders, named on its command line. A
   * relative path is judged from each of them too, and the strictest verdict wins.
   */
  bases?: readonly string[];
  /**
   * effectgate's own files and folders for this session (the policy in force, the lock, its home,
   * the log and taint folders): every effect on them is denied, whatever the policy says.
   */
  own?: readonly OwnPath[];
  /**
   * The bash grammar and the shipped catalogue, once loaded (they are loaded on the first exec
   * call, src/platform/shell-parser.ts). Without them a command is judged the old way.
   */
  shell?: () => ShellKit | undefined;
}
