import type { CodeVariable } from "./api.js";

/**
 * Variables whose value a program runs (GIT_PAGER), loads as code (BASH_ENV, LD_PRELOAD) or reads
 * options from (NODE_OPTIONS): setting one is running code, now or on a later command. The list
 * is data (`variables:` in policy/commands.yaml); what counts as a harmless value is here.
 */

/** Pagers and editors that only show or edit what they are given. */
const HARMLESS_PROGRAMS = new Set([
  "",
  "cat",
  "less",
  "more",
  "most",
  "bat",
  "delta",
  "diff-so-fancy",
  "vim",
  "vi",
  "nvim",
  "nano",
  "emacs",
  "true",
  ":",
  "code",
  "subl",
  "hx",
]);

/** NODE_OPTIONS that load no code: memory, warnings, source maps. */
const HARMLESS_NODE_OPTION =
  /^--(?:max-old-space-size|max-semi-space-size|stack-size|max-http-header-size|dns-result-order|unhandled-rejections|title|tls-min-v1\.[0-3]|tls-max-v1\.[0-3]|heapsnapshot-signal|diagnostic-dir)=\S+$|^--(?:enable-source-maps|no-warnings|no-deprecation|trace-warnings|trace-deprecation|trace-uncaught|experimental-vm-modules|openssl-legacy-provider|use-openssl-ca|use-bundled-ca|preserve-symlinks|no-experimental-fetch|expose-gc|abort-on-uncaught-exception|pending-deprecation|throw-deprecation|inspect|inspect-brk)(?:=\S+)?$/;

/** The kind of a variable: exact names, or a name ending in `*` for a family (`GIT_CONFIG_*`). */
function codeVariableKind(list: ReadonlyMap<string, CodeVariable>, name: string): CodeVariable | undefined {
  const direct = list.get(name);
  if (direct !== undefined) return direct;
  for (const [k, v] of list) if (k.endsWith("*") && name.startsWith(k.slice(0, -1))) return v;
  return undefined;
}

/**
 * Why setting `name` to this value runs code, or undefined when it does not (not a code
 * variable, or a harmless value). `exact` is undefined for a value known only at run time.
 */
export function codeVariableProblem(
  list: ReadonlyMap<string, CodeVariable>,
  name: string,
  exact: string | undefined,
  text: string,
): string | undefined {
  if (name === "PATH") {
    // Appending keeps the system's programs first; anything put before them can shadow one.
    if (exact !== undefined && exact === "") return undefined;
    if (/^\$(?:\{PATH\}|PATH)(?::|$)/.test(text)) return undefined;
    return `sets PATH to ${JSON.stringify(text)}: a program in a folder put first shadows the real one`;
  }
  const kind = codeVariableKind(list, name);
  if (kind === undefined) return undefined;
  if (exact === "") return undefined;
  if (exact === undefined) return `sets ${name}, which runs code, to a value known only at run time`;
  if (kind === "command") {
    const words = exact.trim().split(/\s+/);
    const program = (words[0] ?? "").replace(/^.*\//, "");
    if (HARMLESS_PROGRAMS.has(program) && words.slice(1).every((w) => /^-[\w-]+(?:=\w+)?$/.test(w)))
      return undefined;
    return `sets ${name}, a command run later, to ${JSON.stringify(exact)}`;
  }
  if (kind === "options") {
    if (
      name === "NODE_OPTIONS" &&
      exact
        .trim()
        .split(/\s+/)
        .every((w) => HARMLESS_NODE_OPTION.test(w))
    )
      return undefined;
    return `sets ${name}, options of an interpreter that can load code, to ${JSON.stringify(exact)}`;
  }
  return `sets ${name}, a file loaded as code, to ${JSON.stringify(exact)}`;
}
