import type { ConfiguredRemotes } from "../types.js";
import type { Arg } from "./api.js";
import { gitRemoteUrl, sshTarget } from "./configured-remotes.js";
import type { ProgramRun } from "./program-run.js";

// Where a program sends: the word of a `host` or `remote` role read into a destination, through
// the machine's git remotes and ssh aliases when the relay gives them (decisions 0120, 0128).

/** A remote word that names its destination itself: a URL, or `[user@]host:path`. */
const URLISH = /^[a-z][\w+.-]*:\/\/|^(?:[^\s@/]+@)?[^\s/:]+:/i;
/** Programs whose host word may be an alias of ~/.ssh/config. */
const SSH_PROGRAMS = new Set(["ssh", "scp", "sftp", "rsync", "mosh"]);

/**
 * Where the program sends (decision 0120): a host, `user@host`, `host:port` or URL is an egress
 * effect, canonicalised with tool egress (effects/egress.ts). A word known only at run time is a
 * destination the command does not show. A bare git remote name (`origin`) and an ssh alias
 * are read in the machine's config when the relay gives it (decision 0128); else `origin`
 * names no host.
 */
export function sendTo(run: ProgramRun, role: "host" | "remote", a: Arg, does: string | undefined): void {
  const word = a.value.exact;
  const remotes = run.remotes;
  if (role === "remote" && word !== undefined && !URLISH.test(word)) {
    // A bare remote name: its URL is in the repository's config, when the machine is known.
    if (remotes !== undefined) configuredRemote(run, word, remotes, does);
    return;
  }
  let spelled = word ?? "";
  if (word !== undefined && remotes !== undefined && (SSH_PROGRAMS.has(run.program) || role === "remote")) {
    const real = sshAlias(run, word, remotes);
    if (real === undefined) return;
    spelled = real;
  }
  // Spelled "" when the command does not show it: a destination known only at run time.
  run.sends(
    spelled,
    does ?? "sends data to",
    word === undefined ? { word: a.value.text } : spelled === word ? {} : { word },
  );
}

/** `git push NAME`: the remote's URL in each working folder's repository (decision 0128). */
function configuredRemote(
  run: ProgramRun,
  name: string,
  remotes: ConfiguredRemotes,
  does: string | undefined,
): void {
  for (const c of run.cwds) {
    if (c === null) return run.unknown(`${run.program} ${name}: a repository known only at run time`);
    const config = remotes.gitConfig(c);
    // No repository there: git stops before it connects (`not a git repository`).
    if (config === undefined) continue;
    const url = gitRemoteUrl(config, name);
    if (url === undefined)
      return run.unknown(`${run.program} ${name}: a remote the repository's git config does not define`);
    const real = sshAlias(run, url, remotes);
    if (real === undefined) return;
    run.sends(real, `${does ?? "sends data to"} the remote ${name} at`, { word: name });
  }
}

/**
 * The host an ssh-style destination really reaches (`user@alias:path`, `ssh://alias/x`):
 * its HostName and Port in ~/.ssh/config, jump hosts emitted as destinations too. A single
 * name no Host block defines is unknown; undefined when the program was made unknown.
 */
function sshAlias(run: ProgramRun, word: string, remotes: ConfiguredRemotes): string | undefined {
  const m =
    /^(ssh:\/\/|git\+ssh:\/\/|ssh\+git:\/\/)?(?:([^@/:\s]+)@)?(\[[^\]]+\]|[^:/\s[\]]+)(?::(\d+)(?=\/|$))?/i.exec(
      word,
    );
  // Other URLs (https://, rsync://) and local paths name their host themselves.
  if (m === null || (/^[a-z][\w+.-]*:\/\//i.test(word) && m[1] === undefined)) return word;
  const alias = m[3] as string;
  if (alias.startsWith("[")) return word;
  // An IP address and localhost are looked up too: ssh matches Host patterns against them, so
  // the config can send them elsewhere. They are names in their own right when no block does.
  const t = sshTarget(remotes.sshConfig() ?? "", alias);
  if (t.unsure !== undefined) return void run.unknown(`${run.program} ${alias}: ${t.unsure}`);
  if (!t.known && !alias.includes(".") && alias.toLowerCase() !== "localhost")
    return void run.unknown(
      `${run.program} ${alias}: neither a host name nor an alias ~/.ssh/config defines`,
    );
  for (const j of t.jumps ?? []) run.sends(j.trim(), "connects through");
  if (!t.known) return word;
  const port = m[4] ?? t.port;
  const host = /:/.test(t.host) && !t.host.startsWith("[") ? `[${t.host}]` : t.host;
  return port === undefined ? host : `${host}:${port}`;
}
