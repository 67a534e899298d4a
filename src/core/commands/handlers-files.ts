import type { Arg, Run } from "./api.js";
import { exact, literal, startsOption, text } from "./arg-words.js";
import { codeSettingKey } from "./git-settings.js";

// Programs whose own words name the files they change (git config, dd, tar).

const CONFIG_READ = new Set([
  "--get",
  "--get-all",
  "--get-regexp",
  "--get-urlmatch",
  "--list",
  "-l",
  "get",
  "list",
]);
const CONFIG_WRITE = new Set([
  "--add",
  "--replace-all",
  "--unset",
  "--unset-all",
  "--rename-section",
  "--remove-section",
  "set",
  "unset",
  "rename-section",
  "remove-section",
]);
const CONFIG_FLAGS = new Set([
  "--name-only",
  "--show-origin",
  "--show-scope",
  "-z",
  "--null",
  "--bool",
  "--int",
  "--bool-or-int",
  "--path",
  "--expiry-date",
  "--includes",
  "--no-includes",
  "--all",
  "--fixed-value",
  "--no-type",
]);

/** git config: which file it changes, and whether the key names a program git runs later. */
export function gitConfig(run: Run, args: readonly Arg[]): void {
  let file: Arg = literal(".git/config");
  let op: "read" | "write" | "edit" | undefined;
  const positional: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const t = exact(args[i]);
    if (t === undefined) return run.unknown("git config: a word known only at run time");
    if (t === "--global") file = literal("~/.gitconfig");
    else if (t === "--system") file = literal("/etc/gitconfig");
    else if (t === "--local") file = literal(".git/config");
    else if (t === "--worktree") file = literal(".git/config.worktree");
    else if (t === "--file" || t === "-f") file = args[++i] ?? file;
    else if (t.startsWith("--file=")) file = literal(t.slice(7));
    else if (t === "--blob" || t === "--type" || t === "--default" || t === "--comment" || t === "--value")
      i++;
    else if (CONFIG_READ.has(t)) op ??= "read";
    else if (CONFIG_WRITE.has(t)) op = "write";
    else if (t === "--edit" || t === "-e" || t === "edit") op = "edit";
    else if (CONFIG_FLAGS.has(t) || t.startsWith("--type=") || t.startsWith("--default=")) continue;
    else if (t.startsWith("-")) return run.unknown(`git config ${t}: an option the catalogue does not know`);
    else positional.push(t);
  }
  const action = op ?? (positional.length >= 2 ? "write" : "read");
  if (action === "read") {
    run.role("read", file);
    return run.cls("reads", "git config only reads");
  }
  run.role("write", file, "changes the git settings in");
  if (action === "edit") return run.unknown("git config --edit opens an editor on the settings");
  const key = positional[0];
  if (key !== undefined && codeSettingKey(key))
    run.cls("code-settings", `git config sets ${key}, which names a program git runs later`);
  else run.cls("none", `git config sets ${key ?? "a setting"}`);
}

/** dd: `if=` is read, `of=` is written. */
export function dd(run: Run, args: readonly Arg[]): void {
  for (const a of args) {
    const t = text(a);
    const eq = t.indexOf("=");
    if (eq < 0) return run.unknown(`dd ${t}: an operand the catalogue does not know`);
    const value: Arg = {
      value: {
        ...a.value,
        ...(a.value.exact === undefined ? {} : { exact: t.slice(eq + 1) }),
        text: t.slice(eq + 1),
      },
    };
    const key = t.slice(0, eq);
    if (key === "if") run.role("read", value);
    else if (key === "of") run.role("write", value);
  }
  run.cls("none", "dd copies bytes");
}

/** tar's long options that run a program. */
const TAR_RUNS = [
  "to-command",
  "use-compress-program",
  "checkpoint-action",
  "info-script",
  "new-volume-script",
  "rsh-command",
  "rmt-command",
];

/**
 * tar takes any unambiguous prefix of a long option (`--to-comm=sh` runs sh), so a prefix of
 * one that runs a program counts as it. An ambiguous prefix is an error in tar, so counting it
 * over-reads nothing that runs. `--checkpoint` is an option of its own.
 */
const runsProgram = (name: string): boolean =>
  name !== "--checkpoint" && name.length > 2 && TAR_RUNS.some((r) => r.startsWith(name.slice(2)));

/** tar: the mode letter decides what is read and written. */
export function tar(run: Run, args: readonly Arg[]): void {
  let mode: string | undefined;
  let archive: Arg | undefined;
  // Each -C moves where the names after it are found; the archive is opened where tar starts.
  const dirs: Arg[] = [];
  const operands: Array<{ arg: Arg; dirs: number }> = [];
  const VALUE_LONG =
    /^--(?:file|directory|exclude|files-from|transform|xform|owner|group|mode|mtime|strip-components|blocking-factor|format|label|newer|after-date|exclude-from|wildcards)/;
  for (let i = 0; i < args.length; i++) {
    const a = args[i] as Arg;
    let t = exact(a);
    if (t === undefined) {
      if (startsOption(a)) return run.unknown("tar: an option known only at run time");
      operands.push({ arg: a, dirs: dirs.length });
      continue;
    }
    if (i === 0 && /^[a-zA-Z]+$/.test(t)) t = `-${t}`; // old style: `tar xzf a.tgz`
    if (t.startsWith("--")) {
      const eq = t.indexOf("=");
      const name = eq < 0 ? t : t.slice(0, eq);
      const value = eq < 0 ? undefined : literal(t.slice(eq + 1));
      if (runsProgram(name)) return run.unknown(`tar ${name}: runs a program`);
      if (name === "--file") archive = value ?? args[++i];
      else if (name === "--directory") {
        const d = value ?? args[++i];
        if (d !== undefined) dirs.push(d);
      } else if (name === "--files-from" || name === "--exclude-from") {
        const f = value ?? args[++i];
        if (f !== undefined) run.role("read", f);
      } else if (
        name === "--create" ||
        name === "--extract" ||
        name === "--get" ||
        name === "--list" ||
        name === "--append" ||
        name === "--update"
      )
        mode = {
          "--create": "c",
          "--extract": "x",
          "--get": "x",
          "--list": "t",
          "--append": "r",
          "--update": "u",
        }[name];
      else if (VALUE_LONG.test(name) && value === undefined) i++;
      continue;
    }
    if (t.startsWith("-") && t.length > 1) {
      for (let k = 1; k < t.length; k++) {
        const c = t[k] as string;
        if ("cxtru".includes(c)) mode = c;
        else if (
          c === "f" ||
          c === "C" ||
          c === "T" ||
          c === "X" ||
          c === "b" ||
          c === "N" ||
          c === "K" ||
          c === "V"
        ) {
          const value = k + 1 < t.length ? literal(t.slice(k + 1)) : args[++i];
          if (c === "f") archive = value;
          else if (c === "C" && value !== undefined) dirs.push(value);
          else if ((c === "T" || c === "X") && value !== undefined) run.role("read", value);
          break;
        } else if (c === "I" || c === "F") return run.unknown(`tar -${c}: runs a program`);
      }
      continue;
    }
    operands.push({ arg: a, dirs: dirs.length });
  }
  if (mode === undefined) return run.unknown("tar without a mode (c, x, t, r or u)");
  const reads = mode === "x" || mode === "t";
  if (archive !== undefined) run.role(reads ? "read" : "write", archive);
  if (reads) {
    for (const d of dirs) run.chdir(d);
    if (mode === "t") return run.cls("reads", "tar lists an archive");
    run.role("place", literal("."), "unpacks into");
    return run.cls("none", "tar unpacks an archive");
  }
  let moved = 0;
  for (const o of operands) {
    for (; moved < o.dirs; moved++) run.chdir(dirs[moved] as Arg);
    run.role("source", o.arg, "packs");
  }
  run.cls("none", "tar packs files");
}
