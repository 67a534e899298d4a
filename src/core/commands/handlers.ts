import type { Handler, ProgramEntry } from "../policy/catalogue.js";
import type { Arg, Run } from "./api.js";
import { applyEntry, stdinCode } from "./apply.js";
import { exact, literal, OptionsEnd, startsOption, text } from "./arg-words.js";
import { codeSettingKey } from "./git-settings.js";
import { curl, netcat, remoteCopy, socat, ssh, wget } from "./handlers-network.js";
import { awkProblem, sedScript } from "./scripts.js";

/**
 * Programs whose words are not options and operands: their grammar, read here. Each handler
 * reads what it knows and calls `run.unknown` for anything else, so that a word it cannot place
 * makes the command unknown rather than harmless.
 */

/** sh, bash, zsh…: `-c SCRIPT [$0 [$1…]]`, a script file and its arguments, or code on standard input. */
function shell(run: Run, args: readonly Arg[]): void {
  let i = 0;
  let script = false;
  for (; i < args.length; i++) {
    const a = args[i] as Arg;
    const t = exact(a);
    if (t === undefined) {
      if (startsOption(a)) return run.unknown(`${run.program}: an option known only at run time`);
      break;
    }
    if (t === "--" || t === "-") {
      i++;
      break;
    }
    if (!/^[-+]/.test(t) || t.length < 2) break;
    if (t === "--rcfile" || t === "--init-file") {
      const file = args[i + 1];
      if (file !== undefined) run.role("exec", file);
      i++;
      continue;
    }
    if (t === "--version" || t === "--help") return run.cls("reads", `${run.program} prints about itself`);
    if (t.startsWith("--")) continue;
    const letters = t.slice(1);
    if (letters.includes("c")) script = true;
    // `-o name` and `-O name` take the option's name as their value.
    if (/[oO]/.test(letters)) i++;
  }
  if (script) {
    const code = args[i];
    if (code === undefined) return run.unknown(`${run.program} -c without a script`);
    return run.shell(code, args.slice(i + 1));
  }
  const file = args[i];
  if (file !== undefined) {
    run.role("exec", file);
    for (const a of args.slice(i + 1)) run.role("candidate", a);
    return;
  }
  stdinCode(run, "shell", run.program);
}

/** sed: the script's own commands may write (`w`), read (`r`) or run (`e`) files. */
function sed(run: Run, args: readonly Arg[]): void {
  const scripts: Arg[] = [];
  const files: Arg[] = [];
  let inPlace = false;
  let sandbox = false;
  const end = new OptionsEnd();
  for (let i = 0; i < args.length; i++) {
    const a = args[i] as Arg;
    const t = exact(a);
    if (end.at(t)) continue;
    if (!end.ended && t !== undefined && t.startsWith("--")) {
      const [name, value] = t.includes("=")
        ? [t.slice(0, t.indexOf("=")), t.slice(t.indexOf("=") + 1)]
        : [t, undefined];
      if ("--expression".startsWith(name) && name.length > 3)
        scripts.push(value !== undefined ? literal(value) : (args[++i] ?? literal("")));
      else if ("--file".startsWith(name) && name.length > 3) {
        run.role("read", value !== undefined ? literal(value) : (args[i + 1] ?? literal("")));
        return run.unknown("sed -f: the script is in a file");
      } else if ("--in-place".startsWith(name) && name.length > 4) inPlace = true;
      else if (name === "--sandbox") sandbox = true;
      else if (name === "--line-length" && value === undefined) i++;
      else if (
        ![
          "--quiet",
          "--silent",
          "--regexp-extended",
          "--separate",
          "--unbuffered",
          "--null-data",
          "--posix",
          "--debug",
          "--follow-symlinks",
          "--zero-terminated",
          "--binary",
        ].some((k) => k.startsWith(name))
      )
        return run.unknown(`sed ${name}: an option the catalogue does not know`);
      continue;
    }
    if (!end.ended && t !== undefined && t.startsWith("-") && t.length > 1) {
      for (let k = 1; k < t.length; k++) {
        const c = t[k] as string;
        if (c === "e" || c === "f" || c === "l") {
          const value = k + 1 < t.length ? literal(t.slice(k + 1)) : args[++i];
          if (c === "e" && value !== undefined) scripts.push(value);
          if (c === "f") {
            if (value !== undefined) run.role("read", value);
            return run.unknown("sed -f: the script is in a file");
          }
          break;
        }
        if (c === "i") {
          inPlace = true;
          break; // the rest of the word is a backup suffix
        }
        if (!"nrEsuzbc".includes(c)) return run.unknown(`sed -${c}: an option the catalogue does not know`);
      }
      continue;
    }
    if (!end.ended && t === undefined && startsOption(a))
      return run.unknown("sed: an option known only at run time");
    files.push(a);
  }
  if (scripts.length === 0) {
    const first = files.shift();
    if (first === undefined) return run.unknown("sed without a script");
    scripts.push(first);
  }
  for (const s of scripts) {
    const code = exact(s);
    if (code === undefined) return run.unknown("sed: a script known only at run time");
    const found = sedScript(code);
    if (found.problem !== undefined) return run.unknown(`sed: ${found.problem}`);
    if (!sandbox) {
      for (const f of found.reads) run.role("read", literal(f));
      for (const f of found.writes) run.role("write", literal(f));
      for (const c of found.runs) run.shell(literal(c));
      if (found.runsPatternSpace) return run.unknown("sed: the e command runs the text it edits");
    }
  }
  for (const f of files) run.role(inPlace ? "readwrite" : "read", f);
  if (files.length === 0 && !inPlace) run.cls("reads", "sed only reads");
  else run.cls(inPlace ? "none" : "reads", inPlace ? "sed edits files in place" : "sed only reads");
}

/** awk: a program that calls system(), pipes, or prints into files is code whose effects are not known. */
function awk(run: Run, args: readonly Arg[]): void {
  let program: Arg | undefined;
  let fromFile = false;
  const files: Arg[] = [];
  const end = new OptionsEnd();
  for (let i = 0; i < args.length; i++) {
    const a = args[i] as Arg;
    const t = exact(a);
    if (end.at(t)) continue;
    const optionsOpen = !end.ended && program === undefined && !fromFile;
    if (optionsOpen && t === undefined && startsOption(a))
      return run.unknown("awk: an option known only at run time");
    if (optionsOpen && t !== undefined && t.startsWith("-") && t.length > 1) {
      if (t.startsWith("--")) {
        const eq = t.indexOf("=");
        const name = eq < 0 ? t : t.slice(0, eq);
        const value = (): Arg | undefined => (eq >= 0 ? literal(t.slice(eq + 1)) : args[++i]);
        if (name === "--source") program = value();
        else if (name === "--file" || name === "--include" || name === "--load") {
          const f = value();
          if (f !== undefined) run.role("exec", f);
          fromFile = true;
        } else if (name === "--field-separator" || name === "--assign") value();
        else if (
          ![
            "--sandbox",
            "--posix",
            "--traditional",
            "--re-interval",
            "--characters-as-bytes",
            "--lint",
            "--csv",
          ].includes(name)
        )
          return run.unknown(`awk ${name}: an option the catalogue does not know`);
        continue;
      }
      const c = t[1] as string;
      const glued = t.length > 2 ? literal(t.slice(2)) : undefined;
      if (c === "F" || c === "v") {
        if (glued === undefined) i++;
        continue;
      }
      if ("fEil".includes(c)) {
        const f = glued ?? args[++i];
        if (f !== undefined) run.role("exec", f);
        fromFile = true;
        continue;
      }
      if (c === "e") {
        program = glued ?? args[++i];
        continue;
      }
      if (/^-[bcPOMSrtgn]+$/.test(t)) continue;
      return run.unknown(`awk ${t}: an option the catalogue does not know`);
    }
    if (program === undefined && !fromFile) {
      program = a;
      continue;
    }
    // `var=value` operands set variables; the rest are files read.
    if (t !== undefined && /^[A-Za-z_]\w*=/.test(t)) continue;
    files.push(a);
  }
  if (program !== undefined) {
    const code = exact(program);
    if (code === undefined) return run.unknown("awk: a program known only at run time");
    const problem = awkProblem(code);
    if (problem !== undefined) {
      run.legacy(code);
      return run.unknown(`awk: the program ${problem}`);
    }
  } else if (!fromFile) return run.unknown("awk without a program");
  for (const f of files) run.role("read", f);
  run.cls(fromFile ? "project" : "reads", fromFile ? "awk runs a program from a file" : "awk only reads");
}

const FIND_ONE = new Set(
  "-name -iname -path -ipath -wholename -iwholename -regex -iregex -type -xtype -size -mtime -mmin -atime -amin -ctime -cmin -perm -user -group -uid -gid -maxdepth -mindepth -links -inum -lname -ilname -fstype -printf -regextype -used -context".split(
    " ",
  ),
);
const FIND_READ = new Set(["-newer", "-anewer", "-cnewer", "-samefile"]);
const FIND_FLAGS = new Set(
  "-print -print0 -ls -prune -quit -depth -d -follow -xdev -mount -noleaf -true -false -empty -readable -writable -executable -nouser -nogroup -daystart -warn -nowarn -ignore_readdir_race -noignore_readdir_race -not -a -and -o -or ( ) ! ,".split(
    " ",
  ),
);

/** find: its roots are read; -exec runs a command on files below them; -delete and -fprint change files. */
function find(run: Run, args: readonly Arg[]): void {
  let i = 0;
  for (; i < args.length; i++) {
    const t = exact(args[i]);
    if (t === "-H" || t === "-L" || t === "-P" || (t !== undefined && /^-O\d$/.test(t))) continue;
    if (t === "-D") {
      i++;
      continue;
    }
    break;
  }
  const roots: Arg[] = [];
  for (; i < args.length; i++) {
    const a = args[i] as Arg;
    const t = text(a);
    if (/^[-(!),]/.test(t)) break;
    roots.push(a);
  }
  if (roots.length === 0) roots.push(literal("."));
  const rootTexts = roots.map(text);
  for (const r of roots) run.role("read", r, "lists");

  // The names a found file must have: `-name '*.pem'` finds only names a `**/*.pem` rule guards.
  const names: string[] = [];
  for (let k = 0; k + 1 < args.length; k++) {
    const t = exact(args[k]);
    const v = exact(args[k + 1]);
    if (
      v !== undefined &&
      (t === "-name" || t === "-iname" || t === "-path" || t === "-ipath" || t === "-wholename")
    )
      names.push(v);
  }
  const below = names.length === 0 ? { roots: rootTexts } : { roots: rootTexts, names };
  run.lists(rootTexts, names.length === 0 ? undefined : names);
  for (; i < args.length; i++) {
    const a = args[i] as Arg;
    const t = exact(a);
    if (t === undefined) {
      // A test's value may be dynamic (`-name "$x"`); a primary may not.
      if (i > 0 && FIND_ONE.has(exact(args[i - 1]) ?? "")) continue;
      return run.unknown("find: an expression known only at run time");
    }
    if (FIND_FLAGS.has(t)) continue;
    if (FIND_ONE.has(t) || /^-newer[acmBt][acmBt]$/.test(t)) {
      i++;
      continue;
    }
    if (FIND_READ.has(t)) {
      const f = args[++i];
      if (f !== undefined) run.role("read", f);
      continue;
    }
    if (t === "-fprint" || t === "-fprint0" || t === "-fls" || t === "-fprintf") {
      const f = args[++i];
      if (f !== undefined) run.role("write", f);
      if (t === "-fprintf") i++;
      continue;
    }
    if (t === "-delete") {
      for (const r of roots) run.role("delete", r, "removes files in");
      continue;
    }
    if (t === "-exec" || t === "-execdir" || t === "-ok" || t === "-okdir") {
      const command: Arg[] = [];
      for (i++; i < args.length; i++) {
        const w = args[i] as Arg;
        const e = exact(w);
        if (
          e === ";" ||
          (e === "+" && command.length > 0 && exact(command[command.length - 1])?.includes("{}"))
        )
          break;
        command.push(e !== undefined && e.includes("{}") ? { value: w.value, below } : w);
      }
      if (command.length === 0) return run.unknown(`find ${t} without a command`);
      run.wrap(command);
      continue;
    }
    return run.unknown(`find ${t}: a primary the catalogue does not know`);
  }
  run.cls("reads", "find lists files");
}

/** xargs: runs a command with items from its standard input as more operands. */
function xargs(run: Run, args: readonly Arg[]): void {
  let i = 0;
  let replace: string | undefined;
  const ONE = new Set([
    "-d",
    "-E",
    "-L",
    "-n",
    "-P",
    "-s",
    "-a",
    "--delimiter",
    "--eof",
    "--max-lines",
    "--max-args",
    "--max-procs",
    "--max-chars",
    "--arg-file",
    "--process-slot-var",
  ]);
  for (; i < args.length; i++) {
    const a = args[i] as Arg;
    const t = exact(a);
    if (t === undefined) {
      if (startsOption(a)) return run.unknown("xargs: an option known only at run time");
      break;
    }
    if (!t.startsWith("-") || t === "-") break;
    if (t === "--") {
      i++;
      break;
    }
    const eq = t.indexOf("=");
    const name = eq < 0 ? t : t.slice(0, eq);
    if (name === "-I" || name === "--replace") {
      replace = eq >= 0 ? t.slice(eq + 1) : t === "-I" ? exact(args[++i]) : "{}";
      continue;
    }
    if (/^-I./.test(t)) {
      replace = t.slice(2);
      continue;
    }
    if (/^-i/.test(t)) {
      replace = t.length > 2 ? t.slice(2) : "{}";
      continue;
    }
    if (name === "-a" || name === "--arg-file") {
      const f = eq >= 0 ? literal(t.slice(eq + 1)) : args[++i];
      if (f !== undefined) run.role("read", f);
      continue;
    }
    if (ONE.has(name)) {
      if (eq < 0 && !/^-[dELnPs]./.test(t)) i++;
      continue;
    }
    if (
      /^-[0rtpxo]+$/.test(t) ||
      ["--null", "--no-run-if-empty", "--verbose", "--interactive", "--exit", "--open-tty"].includes(t)
    )
      continue;
    if (/^-[dELnPs]/.test(t)) continue;
    return run.unknown(`xargs ${t}: an option the catalogue does not know`);
  }
  const stdin = run.stdin;
  const dynamic = { text: "", substitutions: [], dynamic: "an item piped into xargs" };
  const item: Arg =
    stdin.kind === "pipe" && stdin.items !== undefined
      ? { value: dynamic, below: stdin.items }
      : { value: dynamic, alternatives: stdin.kind === "pipe" ? (stdin.words ?? []) : [] };
  const command = args.slice(i);
  if (command.length === 0) command.push(literal("echo"));
  if (replace !== undefined) {
    const r = replace;
    run.wrap(command.map((a) => (exact(a)?.includes(r) === true ? item : a)));
  } else run.wrap([...command, item]);
}

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
function gitConfig(run: Run, args: readonly Arg[]): void {
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
function dd(run: Run, args: readonly Arg[]): void {
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

/** tar: the mode letter decides what is read and written. */
function tar(run: Run, args: readonly Arg[]): void {
  let mode: string | undefined;
  let archive: Arg | undefined;
  let dir: Arg | undefined;
  const operands: Arg[] = [];
  const VALUE_LONG =
    /^--(?:file|directory|exclude|files-from|transform|xform|owner|group|mode|mtime|strip-components|blocking-factor|format|label|newer|after-date|exclude-from|wildcards)/;
  for (let i = 0; i < args.length; i++) {
    const a = args[i] as Arg;
    let t = exact(a);
    if (t === undefined) {
      if (startsOption(a)) return run.unknown("tar: an option known only at run time");
      operands.push(a);
      continue;
    }
    if (i === 0 && /^[a-zA-Z]+$/.test(t)) t = `-${t}`; // old style: `tar xzf a.tgz`
    if (t.startsWith("--")) {
      const eq = t.indexOf("=");
      const name = eq < 0 ? t : t.slice(0, eq);
      const value = eq < 0 ? undefined : literal(t.slice(eq + 1));
      if (
        /^--(?:to-command|use-compress-program|checkpoint-action|info-script|new-volume-script|rsh-command|rmt-command)/.test(
          name,
        )
      )
        return run.unknown(`tar ${name}: runs a program`);
      if (name === "--file") archive = value ?? args[++i];
      else if (name === "--directory") dir = value ?? args[++i];
      else if (name === "--files-from" || name === "--exclude-from") {
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
          else if (c === "C") dir = value;
          else if ((c === "T" || c === "X") && value !== undefined) run.role("read", value);
          break;
        } else if (c === "I" || c === "F") return run.unknown(`tar -${c}: runs a program`);
      }
      continue;
    }
    operands.push(a);
  }
  if (dir !== undefined) run.chdir(dir);
  if (mode === "x") {
    if (archive !== undefined) run.role("read", archive);
    run.role("place", dir === undefined ? literal(".") : literal("."), "unpacks into");
    return run.cls("none", "tar unpacks an archive");
  }
  if (mode === "t") {
    if (archive !== undefined) run.role("read", archive);
    return run.cls("reads", "tar lists an archive");
  }
  if (mode === undefined) return run.unknown("tar without a mode (c, x, t, r or u)");
  if (archive !== undefined) run.role("write", archive);
  for (const o of operands) run.role("source", o, "packs");
  run.cls("none", "tar packs files");
}

/** env: assignments, -C DIR, -u NAME, -i; then a command (or it prints the environment). */
function env(run: Run, args: readonly Arg[]): void {
  let i = 0;
  for (; i < args.length; i++) {
    const a = args[i] as Arg;
    const t = exact(a);
    if (t === undefined) {
      if (startsOption(a)) return run.unknown("env: an option known only at run time");
      break;
    }
    if (t === "--") {
      i++;
      break;
    }
    if (t === "-S" || t.startsWith("--split-string") || /^-[iv0]*S/.test(t))
      return run.unknown("env -S: a command split from one string");
    if (t === "-u" || t === "--unset") {
      i++;
      continue;
    }
    if (t === "-C" || t === "--chdir") {
      const d = args[++i];
      if (d !== undefined) run.chdir(d);
      continue;
    }
    if (t.startsWith("--chdir=")) {
      run.chdir(literal(t.slice(8)));
      continue;
    }
    if (
      /^-[iv0]+$/.test(t) ||
      t === "--ignore-environment" ||
      t === "--null" ||
      t === "--debug" ||
      t.startsWith("--unset=") ||
      /^-u./.test(t)
    )
      continue;
    if (t.startsWith("-") && t.length > 1)
      return run.unknown(`env ${t}: an option the catalogue does not know`);
    if (/^[A-Za-z_]\w*=/.test(t)) {
      run.variable(t.slice(0, t.indexOf("=")), literal(t.slice(t.indexOf("=") + 1)));
      continue;
    }
    break;
  }
  const command = args.slice(i);
  if (command.length === 0) return run.cls("reads", "env prints the environment");
  run.wrap(command);
}

export const HANDLERS: Record<Handler, (run: Run, args: readonly Arg[], entry: ProgramEntry) => void> = {
  shell,
  sed,
  awk,
  find,
  xargs,
  "git-config": gitConfig,
  dd,
  tar,
  curl,
  wget,
  "remote-copy": remoteCopy,
  ssh,
  netcat,
  socat,
  env: (run, args) => env(run, args),
};

/** For a program the catalogue lists with subcommands but reads partly by handler (tests). */
export { applyEntry };
