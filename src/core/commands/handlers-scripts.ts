import type { Arg, Run } from "./api.js";
import { exact, literal, OptionsEnd, startsOption } from "./arg-words.js";
import { awkProblem, sedScript } from "./scripts.js";

// Programs that run a script language of their own (sed, awk): what their scripts write, read or run.

/** sed: the script's own commands may write (`w`), read (`r`) or run (`e`) files. */
export function sed(run: Run, args: readonly Arg[]): void {
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
export function awk(run: Run, args: readonly Arg[]): void {
  let program: Arg | undefined;
  let fromFile = false;
  // Options end at the first operand; `-f` may come more than once.
  let operand = false;
  const files: Arg[] = [];
  const end = new OptionsEnd();
  for (let i = 0; i < args.length; i++) {
    const a = args[i] as Arg;
    const t = exact(a);
    if (end.at(t)) continue;
    const optionsOpen = !end.ended && !operand;
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
    operand = true;
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
