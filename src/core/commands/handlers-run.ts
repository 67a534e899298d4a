import type { Arg, Run } from "./api.js";
import { stdinCode } from "./apply.js";
import { exact, literal, startsOption, text } from "./arg-words.js";

// Programs that run other programs (sh -c, find -exec, xargs, env): what they run, read here.

/** sh, bash, zsh…: `-c SCRIPT [$0 [$1…]]`, a script file and its arguments, or code on standard input. */
export function shell(run: Run, args: readonly Arg[]): void {
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

const FIND_ONE = new Set(
  "-name -iname -path -ipath -wholename -iwholename -regex -iregex -type -xtype -size -mtime -mmin -atime -amin -ctime -cmin -perm -user -group -uid -gid -maxdepth -mindepth -links -inum -lname -ilname -fstype -printf -regextype -used -context".split(
    " ",
  ),
);
/** The tests whose glob a found file's name or path must match: each gives a sample name. */
const FIND_NAMES = new Set(["-name", "-iname", "-path", "-ipath", "-wholename", "-iwholename"]);
const FIND_READ = new Set(["-newer", "-anewer", "-cnewer", "-samefile"]);
const FIND_FLAGS = new Set(
  "-print -print0 -ls -prune -quit -depth -d -follow -xdev -mount -noleaf -true -false -empty -readable -writable -executable -nouser -nogroup -daystart -warn -nowarn -ignore_readdir_race -noignore_readdir_race -not -a -and -o -or ( ) ! ,".split(
    " ",
  ),
);

/** find: its roots are read; -exec runs a command on files below them; -delete and -fprint change files. */
export function find(run: Run, args: readonly Arg[]): void {
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
    if (v !== undefined && t !== undefined && FIND_NAMES.has(t)) names.push(v);
  }
  const below = names.length === 0 ? { roots: rootTexts } : { roots: rootTexts, names };
  run.lists(rootTexts, names.length === 0 ? undefined : names);
  for (; i < args.length; i++) {
    const a = args[i] as Arg;
    const t = exact(a);
    // A test's value may be dynamic (`-name "$x"`): the test skips it below. A primary may not,
    // even after a value spelled like a test (`-printf -name "$X"`: "$X" may be -delete).
    if (t === undefined) return run.unknown("find: an expression known only at run time");
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
export function xargs(run: Run, args: readonly Arg[]): void {
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

/** env: assignments, -C DIR, -u NAME, -i; then a command (or it prints the environment). */
export function env(run: Run, args: readonly Arg[]): void {
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
  if (command.length === 0) {
    run.printsEnvironment("env");
    return run.cls("reads", "env prints the environment");
  }
  run.wrap(command);
}
