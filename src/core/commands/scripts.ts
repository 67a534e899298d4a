/**
 * The little languages programs take as a script argument: which sed commands read, write or
 * run files, and whether an awk program can do more than read and print. Anything these readers
 * do not recognise is a problem, so the command is judged as unknown rather than harmless.
 */

export interface SedFacts {
  reads: string[];
  writes: string[];
  /** Commands run by `e command`. */
  runs: string[];
  /** `e` alone, or the `e` flag of `s`: the edited text is run as a command. */
  runsPatternSpace: boolean;
  problem?: string;
}

/** Reads `text[i…]` up to an unescaped `delim`, returning the index after it (or -1). */
function until(text: string, i: number, delim: string): number {
  for (let k = i; k < text.length; k++) {
    const c = text[k];
    if (c === "\\") {
      k++;
      continue;
    }
    if (c === delim) return k + 1;
    if (c === "\n" && delim !== "\n") return -1;
  }
  return -1;
}

/** The rest of the line from `i` (a file name or text argument), and where the next command starts. */
function restOfLine(text: string, i: number): { arg: string; next: number } {
  let k = i;
  while (k < text.length && (text[k] === " " || text[k] === "\t")) k++;
  const end = text.indexOf("\n", k);
  const stop = end < 0 ? text.length : end;
  return { arg: text.slice(k, stop), next: stop + 1 };
}

const SIMPLE = new Set([
  "p",
  "P",
  "d",
  "D",
  "n",
  "N",
  "g",
  "G",
  "h",
  "H",
  "x",
  "z",
  "=",
  "F",
  "l",
  "L",
  "q",
  "Q",
]);

export function sedScript(script: string): SedFacts {
  const facts: SedFacts = { reads: [], writes: [], runs: [], runsPatternSpace: false };
  const problem = (why: string): SedFacts => ({ ...facts, problem: why });
  let i = 0;
  const n = script.length;
  const skipBlank = () => {
    while (i < n && /[\s;]/.test(script[i] as string)) i++;
  };
  const address = (): boolean => {
    const c = script[i];
    if (c === undefined) return true;
    if (/[0-9]/.test(c)) {
      while (i < n && /[0-9~]/.test(script[i] as string)) i++;
      return true;
    }
    if (c === "$") {
      i++;
      return true;
    }
    if (c === "/" || c === "\\") {
      const delim = c === "\\" ? script[i + 1] : "/";
      if (delim === undefined) return false;
      const end = until(script, i + (c === "\\" ? 2 : 1), delim);
      if (end < 0) return false;
      i = end;
      while (i < n && /[IM]/.test(script[i] as string)) i++;
      return true;
    }
    if (c === "+" || c === "~") {
      i++;
      while (i < n && /[0-9]/.test(script[i] as string)) i++;
      return true;
    }
    return true;
  };
  while (i < n) {
    skipBlank();
    if (i >= n) break;
    if (!address()) return problem("an address that does not end");
    if (script[i] === ",") {
      i++;
      if (!address()) return problem("an address that does not end");
    }
    while (i < n && /[ \t]/.test(script[i] as string)) i++;
    if (script[i] === "!") i++;
    while (i < n && /[ \t]/.test(script[i] as string)) i++;
    const c = script[i++];
    if (c === undefined) break;
    if (c === "{" || c === "}" || c === ";") continue;
    if (c === "#" || c === ":" || c === "a" || c === "i" || c === "c") {
      // A comment, a label or text to add: to the end of the line (with GNU's one-line form).
      let { next } = restOfLine(script, i);
      while ((c === "a" || c === "i" || c === "c") && script[next - 2] === "\\" && next < n)
        next = restOfLine(script, next).next;
      i = next;
      continue;
    }
    if (c === "b" || c === "t" || c === "T") {
      while (i < n && !/[;\n}]/.test(script[i] as string)) i++;
      continue;
    }
    if (c === "r" || c === "R" || c === "w" || c === "W") {
      const { arg, next } = restOfLine(script, i);
      if (arg === "") return problem(`the ${c} command without a file`);
      // /dev/stdout and /dev/stderr are GNU sed's own names for the output streams.
      if (c === "w" || c === "W") {
        if (arg !== "/dev/stdout" && arg !== "/dev/stderr") facts.writes.push(arg);
      } else facts.reads.push(arg);
      i = next;
      continue;
    }
    if (c === "e") {
      const { arg, next } = restOfLine(script, i);
      if (arg.trim() === "") facts.runsPatternSpace = true;
      else facts.runs.push(arg);
      i = next;
      continue;
    }
    if (c === "s" || c === "y") {
      const delim = script[i];
      if (delim === undefined || delim === "\n" || delim === "\\")
        return problem(`an ${c} command without a delimiter`);
      const mid = until(script, i + 1, delim);
      const end = mid < 0 ? -1 : until(script, mid, delim);
      if (end < 0) return problem(`an ${c} command that does not end`);
      i = end;
      if (c === "y") continue;
      while (i < n && /[gpiImMe0-9w]/.test(script[i] as string)) {
        const f = script[i++] as string;
        if (f === "e") facts.runsPatternSpace = true;
        if (f === "w") {
          const { arg, next } = restOfLine(script, i);
          if (arg !== "/dev/stdout" && arg !== "/dev/stderr") facts.writes.push(arg);
          i = next;
          break;
        }
      }
      continue;
    }
    if (c === "v") {
      while (i < n && !/[;\n}]/.test(script[i] as string)) i++;
      continue;
    }
    if (SIMPLE.has(c)) {
      while (i < n && /[0-9 ]/.test(script[i] as string)) i++;
      continue;
    }
    return problem(`the command ${JSON.stringify(c)}, which the catalogue does not know`);
  }
  return facts;
}

/** Strings and regular-expression literals removed, so that their text is not read as code. */
function stripLiterals(program: string): string {
  let out = "";
  let i = 0;
  let last = "";
  while (i < program.length) {
    const c = program[i] as string;
    if (c === '"') {
      const end = until(program, i + 1, '"');
      if (end < 0) return `${out}"`;
      out += '""';
      i = end;
      last = '"';
      continue;
    }
    // A `/` starts a regex where an operand is expected (not after a value: that is division).
    if (c === "/" && (last === "" || /[(,~!{};&|?:\n]/.test(last))) {
      const end = until(program, i + 1, "/");
      if (end > 0) {
        out += "//";
        i = end;
        last = "/";
        continue;
      }
    }
    if (c === "#") {
      const end = program.indexOf("\n", i);
      i = end < 0 ? program.length : end;
      continue;
    }
    out += c;
    if (!/\s/.test(c)) last = c;
    i++;
  }
  return out;
}

/** Why an awk program may do more than read its input and print, or undefined when it cannot. */
export function awkProblem(program: string): string | undefined {
  const code = stripLiterals(program).replaceAll("||", " ");
  if (/\bsystem\s*\(/.test(code)) return "calls system()";
  if (code.includes("|")) return "pipes to or from a command";
  if (/\bgetline\b/.test(code) && code.includes("<")) return "reads a file with getline";
  if (/\bprintf?\b[^;{}\n]*>/.test(code)) return "prints into a file";
  if (/@(?:load|include)\b/.test(code)) return "loads an extension";
  return undefined;
}
