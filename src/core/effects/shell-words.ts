/**
 * A small shell lexer for judging commands: words as a shell would hand them to a program (quotes
 * group, escapes escape), grouped into simple commands, and which program each simple command
 * runs. It is not a shell parser and does not try to be one: every caller over-collects (each
 * reading of a word is a candidate, the strictest verdict wins), so a second reading costs a
 * little time while a missed one is a breach (docs/decisions/0062-exec-words-as-a-shell-reads-them.md).
 *
 * Two modes, because one command string is read by different shells:
 * - posix: `\` escapes the next character (`.ss\h` is `.ssh`), `'…'` is literal, `"…"` keeps
 *   `\` only before `$ \` " \\` and a line break, `$'…'` is ANSI-C quoting (`$'\x2essh'` is `.ssh`);
 * - windows: `\` is a path separator, PowerShell's backtick and cmd's `^` escape the next character.
 */

import { ansiC } from "../shell/ansi-c.js";
import { programName } from "../shell/program-name.js";

export { ansiC, programName };

export type LexMode = "posix" | "windows";

const BLANK = new Set([" ", "\t", "\v", "\f"]);
/** Characters that end a simple command (unquoted). Redirections only end a word. */
const COMMAND_BREAK = new Set([";", "|", "&", "\n", "\r", "(", ")", "`"]);

/** A simple command: its words, dequoted. */
export interface SimpleCommand {
  words: string[];
}

export interface Lexed {
  commands: SimpleCommand[];
  /** The text inside every quoted part, dequoted (code handed to a program is read again from these). */
  quoted: string[];
}

/** Words of `text` as the mode's shell would split and dequote them, grouped into simple commands. */
export function lexCommands(text: string, mode: LexMode): Lexed {
  const commands: SimpleCommand[] = [];
  const quoted: string[] = [];
  let words: string[] = [];
  let word = "";
  let inWord = false;
  const endWord = () => {
    if (inWord) words.push(word);
    word = "";
    inWord = false;
  };
  const endCommand = () => {
    endWord();
    if (words.length > 0) commands.push({ words });
    words = [];
  };
  const posix = mode === "posix";
  for (let i = 0; i < text.length; i++) {
    const c = text[i] as string;
    const next = text[i + 1];
    if ((posix && c === "\\") || (!posix && (c === "`" || c === "^"))) {
      inWord = true;
      if (next === undefined) {
        if (posix) word += c; // a trailing backslash stays
        continue;
      }
      i++;
      if (next !== "\n") word += next; // an escaped line break continues the line
      continue;
    }
    if (c === "'") {
      const end = text.indexOf("'", i + 1);
      const stop = end < 0 ? text.length : end;
      quoted.push(text.slice(i + 1, stop));
      word += text.slice(i + 1, stop);
      inWord = true;
      i = stop;
      continue;
    }
    if (posix && c === "$" && next === "'") {
      const { decoded, stop } = ansiC(text, i + 2);
      quoted.push(decoded);
      word += decoded;
      inWord = true;
      i = stop;
      continue;
    }
    if (c === '"' || (posix && c === "$" && next === '"')) {
      if (c === "$") i++;
      let inside = "";
      let j = i + 1;
      for (; j < text.length && text[j] !== '"'; j++) {
        const d = text[j] as string;
        const e = text[j + 1];
        if (posix && d === "\\" && e !== undefined && '$`"\\\n'.includes(e)) {
          j++;
          if (e !== "\n") inside += e;
          continue;
        }
        if (!posix && d === "`" && e !== undefined) {
          j++;
          inside += e;
          continue;
        }
        inside += d;
      }
      // What the program receives: `python -c "open(\"x\")"` hands it `open("x")`.
      quoted.push(inside);
      word += inside;
      inWord = true;
      i = j;
      continue;
    }
    if (BLANK.has(c)) {
      endWord();
      continue;
    }
    if (COMMAND_BREAK.has(c)) {
      endCommand();
      continue;
    }
    if (c === "<" || c === ">") {
      endWord();
      continue;
    }
    word += c;
    inWord = true;
  }
  endCommand();
  return { commands, quoted };
}

/** Words that introduce or group commands rather than run a program (`if x; then mv …`). */
const KEYWORDS = new Set([
  "if",
  "then",
  "else",
  "elif",
  "fi",
  "do",
  "done",
  "while",
  "until",
  "!",
  "{",
  "}",
  "[[",
  "]]",
  "case",
  "esac",
  "coproc",
]);

/**
 * Programs that run another program named later among their arguments (`sudo -u root mv …`,
 * `timeout 5 mv …`, `busybox mv …`, `xargs mv …`). Their options and option values differ, so
 * every later word is tried as the program (see invocations).
 */
const WRAPPERS = new Set([
  "sudo",
  "doas",
  "env",
  "nohup",
  "command",
  "builtin",
  "exec",
  "time",
  "nice",
  "ionice",
  "timeout",
  "stdbuf",
  "setsid",
  "busybox",
  "toybox",
  "xargs",
  "chrt",
  "taskset",
  "unbuffer",
  "caffeinate",
  "flock",
  "strace",
  "ltrace",
  "watch",
  "npx",
  "bunx",
  "run0",
  "pkexec",
  "start-process",
  "saps",
  "start",
  "call",
  "invoke-expression",
  "iex",
]);

/** Shells whose `-c SCRIPT` (or `-lc`, `-ec`, …) runs SCRIPT. */
const POSIX_SHELLS = new Set(["sh", "bash", "zsh", "dash", "ksh", "mksh", "ash", "fish", "su", "runuser"]);
const POWERSHELLS = new Set(["pwsh", "powershell", "pwsh-preview"]);

const ASSIGNMENT = /^[A-Za-z_]\w*=/;

export interface Invocation {
  /** The program's name (programName). */
  program: string;
  /** The words after it. */
  args: string[];
  /** Whether `xargs` runs it: its operands then also come from what is piped in. */
  underXargs: boolean;
}

/** The words after `words[at]`, read once and only when a caller asks (a long argv stays cheap). */
function invocationAt(words: readonly string[], at: number, underXargs: boolean): Invocation {
  let args: string[] | undefined;
  return {
    program: programName(words[at] as string),
    get args() {
      return (args ??= words.slice(at + 1));
    },
    underXargs,
  };
}

/**
 * The programs a simple command may run, each with the words after it: the first word that is
 * not an assignment or a keyword, and, when that is a wrapper, every later word too (a wrapper's
 * options take values we do not model: `sudo -u root mv`, `nice -n 5 mv`, `env -u X mv`).
 */
export function invocations(words: readonly string[]): Invocation[] {
  let i = 0;
  while (i < words.length && (ASSIGNMENT.test(words[i] as string) || KEYWORDS.has(words[i] as string))) i++;
  if (i >= words.length) return [];
  const first = invocationAt(words, i, false);
  if (!WRAPPERS.has(first.program)) return [first];
  const out = [first];
  let underXargs = first.program === "xargs";
  for (let j = i + 1; j < words.length; j++) {
    const inv = invocationAt(words, j, underXargs);
    out.push(inv);
    if (inv.program === "xargs") underXargs = true;
  }
  return out;
}

/** `-c`, `-lc`, `-ec`, `-xc`…: a short option cluster with `c` in it. */
const SHELL_C = /^-[A-Za-z]*c[A-Za-z]*$/;
/** PowerShell's -Command and the prefixes it accepts. */
const PS_COMMAND = /^[-/](?:c|co|com|comm|comma|comman|command)$/i;
const PS_ENCODED = /^[-/](?:e|ec|en|enc|enco|encod|encode|encoded|encodedc\w*|encodedcommand)$/i;

/**
 * The script an invocation hands to a shell, if any: `sh -c SCRIPT`, `bash -lc SCRIPT`,
 * `pwsh -Command A B` (the rest, joined), `pwsh -EncodedCommand B64` (decoded), `cmd /c A B`,
 * `eval A B`.
 */
export function scriptOf(inv: Invocation): string | undefined {
  const { program, args } = inv;
  if (POSIX_SHELLS.has(program) || program === "busybox") {
    const k = args.findIndex((a) => SHELL_C.test(a));
    return k < 0 ? undefined : args[k + 1];
  }
  if (POWERSHELLS.has(program)) {
    const k = args.findIndex((a) => PS_COMMAND.test(a));
    if (k >= 0) return args.slice(k + 1).join(" ");
    const e = args.findIndex((a) => PS_ENCODED.test(a));
    if (e >= 0 && args[e + 1] !== undefined) return decodeUtf16Base64(args[e + 1] as string);
    return undefined;
  }
  if (program === "cmd") {
    const k = args.findIndex((a) => /^\/[ck]$/i.test(a));
    return k < 0 ? undefined : args.slice(k + 1).join(" ");
  }
  if (program === "eval") return args.join(" ");
  return undefined;
}

/** PowerShell's -EncodedCommand: base64 of UTF-16LE text. Undefined when it is not that. */
function decodeUtf16Base64(b64: string): string | undefined {
  if (!/^[A-Za-z0-9+/]+={0,2}$/.test(b64)) return undefined;
  const bytes = Buffer.from(b64, "base64");
  if (bytes.length < 2) return undefined;
  return bytes.subarray(0, bytes.length - (bytes.length % 2)).toString("utf16le");
}
