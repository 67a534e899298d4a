import type { PlatformProfile } from "./api.js";

// Expansion of what a caller may write in place of a real folder: `~`, environment variables and
// `file://` URIs. Pure: every fact comes from the profile.

export type Expanded = { ok: true; text: string } | { ok: false; error: string };

/**
 * `$NAME`, `${NAME}` everywhere; on win32 also `%NAME%` and PowerShell's `$env:NAME`.
 * One alternation, one pass: a value that itself contains `$X` is never expanded again.
 */
const POSIX_VARS = /\$\{([A-Za-z_][A-Za-z0-9_]*)\}|\$([A-Za-z_][A-Za-z0-9_]*)/g;
const WIN32_VARS =
  /\$env:([A-Za-z_][A-Za-z0-9_]*)|\$\{([A-Za-z_][A-Za-z0-9_]*)\}|\$([A-Za-z_][A-Za-z0-9_]*)|%([A-Za-z_][A-Za-z0-9_(). -]*)%/gi;

/** Windows variable names are case-insensitive; build the folded table once per env object. */
const foldedEnvs = new WeakMap<object, Map<string, string>>();

function win32Table(env: Readonly<Record<string, string>>): Map<string, string> {
  let table = foldedEnvs.get(env);
  if (!table) {
    table = new Map();
    for (const [k, v] of Object.entries(env)) if (!table.has(k.toUpperCase())) table.set(k.toUpperCase(), v);
    foldedEnvs.set(env, table);
  }
  return table;
}

/** The value of a variable, or undefined when it is not set. HOME/USERPROFILE fall back to the profile's home. */
export function lookupVar(name: string, profile: PlatformProfile): string | undefined {
  let value: string | undefined;
  if (profile.platform === "win32") {
    value = win32Table(profile.env).get(name.toUpperCase());
    if (value === undefined && (name.toUpperCase() === "USERPROFILE" || name.toUpperCase() === "HOME"))
      value = profile.home;
  } else {
    value = Object.prototype.hasOwnProperty.call(profile.env, name) ? profile.env[name] : undefined;
    if (value === undefined && name === "HOME") value = profile.home;
  }
  return value;
}

/** Replace every SET variable; unset ones stay exactly as written (so `$NOPE/.ssh` stays relative). */
export function expandVars(text: string, profile: PlatformProfile): string {
  if (!text.includes("$") && !text.includes("%")) return text;
  const re = profile.platform === "win32" ? WIN32_VARS : POSIX_VARS;
  return text.replace(re, (whole: string, ...groups: unknown[]) => {
    const name = groups
      .slice(0, profile.platform === "win32" ? 4 : 2)
      .find((g) => typeof g === "string") as string;
    return lookupVar(name, profile) ?? whole;
  });
}

/**
 * `~`, `~/…` and (win32) `~\…` become the home folder, and SET variables are replaced in the rest.
 * `~user` is left alone (we cannot know other users' homes). The home folder itself is inserted
 * as is: a `$` in it is never expanded (no recursive expansion).
 */
export function expandHomeAndVars(text: string, profile: PlatformProfile): string {
  const rest = afterHome(text, profile);
  return rest === undefined ? expandVars(text, profile) : profile.home + expandVars(rest, profile);
}

/** What follows a leading `~` that names the home folder (`~`, `~/…`, win32 `~\…`), or undefined. */
export function afterHome(text: string, profile: PlatformProfile): string | undefined {
  if (!text.startsWith("~")) return undefined;
  const next = text[1];
  if (next === undefined || next === "/" || (profile.platform === "win32" && next === "\\"))
    return text.slice(1);
  return undefined;
}

export function isFileUri(text: string): boolean {
  return /^file:/i.test(text);
}

/**
 * `file:///abs`, `file://localhost/abs`, `file:/abs`, win32 `file:///C:/x` and UNC
 * `file://server/share/x` → a plain path, percent-decoded as UTF-8. A remote host is only
 * meaningful on win32 (UNC); elsewhere it is refused rather than guessed.
 */
export function fileUriToPath(uri: string, profile: PlatformProfile): Expanded {
  let rest = uri.slice("file:".length);
  const q = rest.search(/[?#]/);
  if (q >= 0) rest = rest.slice(0, q);
  let host = "";
  if (rest.startsWith("//")) {
    const slash = rest.indexOf("/", 2);
    host = slash < 0 ? rest.slice(2) : rest.slice(2, slash);
    rest = slash < 0 ? "/" : rest.slice(slash);
  }
  if (!rest.startsWith("/"))
    return { ok: false, error: `expected an absolute file: URI (file:///…), got ${JSON.stringify(uri)}` };
  let decoded: string;
  try {
    decoded = decodeURIComponent(rest);
  } catch {
    return {
      ok: false,
      error: `expected valid UTF-8 percent-encoding in the file: URI, got ${JSON.stringify(uri)}`,
    };
  }
  const local = host === "" || host.toLowerCase() === "localhost";
  if (profile.platform === "win32") {
    // `/C:/x` → `C:/x`; a host means a UNC share.
    if (local) return { ok: true, text: /^\/[A-Za-z]:/.test(decoded) ? decoded.slice(1) : decoded };
    return { ok: true, text: `//${decodeHost(host)}${decoded}` };
  }
  if (!local)
    return {
      ok: false,
      error: `expected a local file: URI (no host or localhost), got host ${JSON.stringify(host)}`,
    };
  return { ok: true, text: decoded };
}

function decodeHost(host: string): string {
  try {
    return decodeURIComponent(host);
  } catch {
    return host;
  }
}
