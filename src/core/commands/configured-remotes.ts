// Destinations a command names only through configuration (decision 0128): a git remote's URL
// in the repository's config, and an ssh alias's real host in ~/.ssh/config. The files are read
// at the edge (src/platform/configured-remotes.ts); here their text is read into a host.

/**
 * The URL `git push NAME` sends to: `remote.NAME.pushurl`, else `remote.NAME.url`, with the
 * longest `url.BASE.pushInsteadOf`/`insteadOf` prefix rewritten. Undefined when the config does
 * not define the remote. Section and key names fold case as git folds them; subsections do not.
 */
export function gitRemoteUrl(config: string, name: string): string | undefined {
  let section = "";
  let url: string | undefined;
  let pushUrl: string | undefined;
  const rewrites: Array<{ base: string; prefix: string; push: boolean }> = [];
  for (const raw of config.split(/\r?\n/)) {
    const line = raw.replace(/^\s+/, "");
    if (line === "" || line.startsWith("#") || line.startsWith(";")) continue;
    const head = /^\[\s*([A-Za-z0-9.-]+)(?:\s+"((?:[^"\\]|\\.)*)")?\s*\]/.exec(line);
    if (head !== null) {
      section = `${(head[1] as string).toLowerCase()}\u0000${(head[2] ?? "").replace(/\\(.)/g, "$1")}`;
      continue;
    }
    const kv = /^([A-Za-z][\w-]*)\s*(?:=\s*(.*?))?\s*$/.exec(line);
    if (kv === null) continue;
    const key = (kv[1] as string).toLowerCase();
    const value = unquote(kv[2] ?? "");
    const [sec, sub] = section.split("\u0000") as [string, string];
    if (sec === "remote" && sub === name) {
      if (key === "url") url ??= value;
      if (key === "pushurl") pushUrl ??= value;
    }
    if (sec === "url" && (key === "insteadof" || key === "pushinsteadof"))
      rewrites.push({ base: sub, prefix: value, push: key === "pushinsteadof" });
  }
  const found = pushUrl ?? url;
  if (found === undefined) return undefined;
  // pushInsteadOf applies to a url (not a pushurl) and wins over insteadOf.
  const fits = rewrites.filter((r) => found.startsWith(r.prefix) && (!r.push || pushUrl === undefined));
  fits.sort((a, b) => Number(b.push) - Number(a.push) || b.prefix.length - a.prefix.length);
  const best = fits[0];
  return best === undefined ? found : best.base + found.slice(best.prefix.length);
}

/** A git config value: quotes removed, `\"` and `\\` unescaped, a trailing comment dropped. */
function unquote(v: string): string {
  let out = "";
  let quoted = false;
  for (let i = 0; i < v.length; i++) {
    const c = v[i] as string;
    if (c === "\\" && i + 1 < v.length) out += v[++i] as string;
    else if (c === '"') quoted = !quoted;
    else if (!quoted && (c === "#" || c === ";")) break;
    else out += c;
  }
  return out.trim();
}

/** What an ssh alias resolves to; `known` is false when no Host block names it. */
export interface SshTarget {
  host: string;
  port?: string;
  known: boolean;
  /** Jump hosts (ProxyJump): they receive the connection too. */
  jumps?: string[];
  /** Why the target cannot be told (a Match block, a ProxyCommand): the destination is unknown. */
  unsure?: string;
}

/** An ssh Host pattern (`*`, `?`, `!negation`) against a name, as ssh matches them (case-folded). */
function hostMatches(patterns: readonly string[], name: string): boolean {
  let hit = false;
  for (const p of patterns) {
    const neg = p.startsWith("!");
    const glob = (neg ? p.slice(1) : p).toLowerCase();
    const re = new RegExp(
      `^${glob
        .replace(/[.+^${}()|[\]\\]/g, "\\$&")
        .replace(/\*/g, ".*")
        .replace(/\?/g, ".")}$`,
    );
    if (re.test(name.toLowerCase())) {
      if (neg) return false;
      hit = true;
    }
  }
  return hit;
}

/**
 * The host and port `ssh ALIAS` connects to under `config` (the first value of each option
 * wins, as ssh reads it; `%h` in HostName is the alias). A Match block or an Include is not
 * followed: a name one of those may change is unsure.
 */
export function sshTarget(config: string, alias: string): SshTarget {
  let patterns: string[] | undefined;
  let known = false;
  let host: string | undefined;
  let port: string | undefined;
  let unsure: string | undefined;
  let unfollowed: string | undefined;
  let jumps: string[] | undefined;
  for (const raw of config.split(/\r?\n/)) {
    const line = raw.trim();
    if (line === "" || line.startsWith("#")) continue;
    const m = /^(\S+?)(?:\s*=\s*|\s+)(.*)$/.exec(line);
    if (m === null) continue;
    const key = (m[1] as string).toLowerCase();
    const value = (m[2] as string).trim().replace(/^"(.*)"$/, "$1");
    if (key === "host") {
      patterns = value.split(/\s+/);
      if (hostMatches(patterns, alias) && !patterns.every((p) => p === "*")) known = true;
      continue;
    }
    if (key === "match") {
      patterns = [];
      unfollowed ??= "~/.ssh/config has a Match block, which effectgate does not follow";
      continue;
    }
    if (key === "include") {
      unfollowed ??= "~/.ssh/config includes another file, which effectgate does not follow";
      continue;
    }
    if (patterns !== undefined && !hostMatches(patterns, alias)) continue;
    if (key === "hostname") host ??= value.replace(/%h/g, alias);
    else if (key === "port") port ??= value;
    else if (key === "proxyjump" && value.toLowerCase() !== "none") jumps ??= value.split(",");
    else if (key === "proxycommand" && value.toLowerCase() !== "none")
      unsure ??= `~/.ssh/config runs a command to reach ${alias}`;
  }
  const out: SshTarget = { host: host ?? alias, known: known || host !== undefined };
  if (port !== undefined) out.port = port;
  if (jumps !== undefined) out.jumps = jumps;
  // A name no Host block names may still be changed by what is not followed.
  const why = unsure ?? (out.known ? undefined : unfollowed);
  if (why !== undefined) out.unsure = why;
  return out;
}
