import { ansiC, invocations, lexCommands, type LexMode, scriptOf } from "./shell-words.js";
import { wordReadings } from "../shell/word-readings.js";

/**
 * Path candidates inside a command string. A shell can read or write anything its words name,
 * so every word is judged as a path (`cat ~/.ssh/id_rsa`, `echo x > ~/.bashrc`, `--out=/etc/x`).
 * This is not a shell parser: it over-collects on purpose, since an extra harmless candidate
 * costs little and a missed one is a breach. The same command is read several ways, and every
 * word of every reading is a candidate (docs/decisions/0062-exec-words-as-a-shell-reads-them.md):
 *
 * - split on blanks and shell punctuation with quotes deleted (the first reading effectgate had);
 * - as a POSIX shell reads it: quotes and `\` group (`"Code - Insiders/x"`, `John\ Smith`),
 *   `\` is removed (`.ss\h`), `$'\x2e'` is decoded;
 * - as PowerShell and cmd read it: `\` is a separator, a backtick or `^` escapes;
 * - each quoted literal on its own, and read again as code (`open('/h/.bashrc','a')`: the two
 *   literals are two arguments), with C escapes decoded (`"\x2essh"`);
 * - the script of `sh -c`, `bash -lc`, `pwsh -Command`/`-EncodedCommand`, `cmd /c`, `eval`;
 * - for each word, the readings of wordReadings (glued option values, braces, `~user`,
 *   variables that may be unset, the folders globs reach into).
 * Variables stay for the canonicaliser to expand.
 */
export interface CommandReadings {
  /** Path candidates, without repeats. */
  words: string[];
  /** Folders a glob reaches into; also in `words`. Judged as whole folders (containers.ts). */
  globFolders: string[];
  /** Host-like arguments of curl, wget, Invoke-WebRequest…: fetched over the network. */
  fetched: string[];
  /** Why the command cannot be read (a brace expansion too large to follow). */
  unjudgeable?: string;
}

/** How deep code inside code is read again (`sh -c "python -c \"open('x')\""` is three). */
const MAX_DEPTH = 4;

/** Programs that fetch what their argument names, with or without a scheme. */
const FETCHERS = new Set([
  "curl",
  "wget",
  "wget2",
  "aria2c",
  "http",
  "https",
  "xh",
  "iwr",
  "invoke-webrequest",
  "irm",
  "invoke-restmethod",
]);

/** `evil.example/x`, `1.2.3.4:8080/x`: a host curl would fetch from though no scheme is written. */
const HOSTISH =
  /^(?:(?:[A-Za-z0-9-]+\.)+[A-Za-z]{2,}|(?:\d{1,3}\.){3}\d{1,3}|localhost)(?::\d+)?(?:[/?#]\S*)?$/;
const SCHEME = /^\s*[a-z][a-z0-9+.-]*:\/\//i;

interface Acc {
  /** Called for each word read, so that the caller can stop at its budget (it may throw). */
  onWord: (word: string) => void;
  /** Texts already read (the POSIX and Windows readings of a literal are often the same text). */
  seen: Set<string>;
  /** Words already given to wordReadings. */
  raw: Set<string>;
  /** Characters code-inside-code may still cost; reading stops being possible past it. */
  budget: number;
  words: Set<string>;
  globs: Set<string>;
  fetched: Set<string>;
  unjudgeable?: string;
}

/**
 * Adds the readings of one word. The budget counts every word of the first reading of the
 * command (as the plain split always did, repeats included), and each new word of any other
 * reading or derived from a word; a repeated word is read once.
 */
function addWord(word: string, acc: Acc, first: boolean): void {
  if (first) acc.onWord(word);
  // `$(cat x)` splits into `$` and `cat`; a lone `$` or `{`/`}` says nothing.
  if (word === "" || word === "$" || acc.raw.has(word) || /^[{}]+$/.test(word)) return;
  acc.raw.add(word);
  if (!first) acc.onWord(word);
  const r = wordReadings(word);
  for (const w of r.words) {
    if (acc.words.has(w)) continue;
    acc.words.add(w);
    if (w !== word) acc.onWord(w);
  }
  for (const g of r.globFolders) acc.globs.add(g);
  if (r.unjudgeable !== undefined) acc.unjudgeable ??= r.unjudgeable;
}

/** The first reading: blanks and punctuation split, quotes deleted. */
function plainWords(command: string): string[] {
  return command.split(/[\s;|&<>()`]+/).map((raw) => raw.replace(/["']/g, ""));
}

/** C, Python and JavaScript escapes in a code literal (`"\x2essh"`, `"\\.ssh"`), as bash's $'…' reads them. */
function cEscapes(literal: string): string {
  return ansiC(literal.replaceAll("'", "\\'"), 0).decoded;
}

function collect(command: string, depth: number, acc: Acc): void {
  if (acc.seen.has(command)) return;
  acc.seen.add(command);
  acc.budget -= command.length;
  if (acc.budget < 0) {
    acc.unjudgeable ??= "quoted code nested inside the command is too large to read";
    return;
  }
  // Without quotes, escapes or `$`, the three readings split alike: one is enough.
  const special = /['"\\`^$]/.test(command);
  if (special) for (const w of plainWords(command)) addWord(w, acc, depth === 0);
  for (const mode of (special ? ["posix", "windows"] : ["posix"]) as LexMode[]) {
    const lexed = lexCommands(command, mode);
    for (const { words } of lexed.commands) {
      for (const w of words) addWord(w, acc, depth === 0 && !special);
      for (const inv of invocations(words)) {
        if (FETCHERS.has(inv.program))
          for (const a of inv.args) if (HOSTISH.test(a) && !SCHEME.test(a)) acc.fetched.add(a);
        const script = scriptOf(inv);
        if (script !== undefined && depth < MAX_DEPTH) collect(script, depth + 1, acc);
      }
    }
    if (depth >= MAX_DEPTH) continue;
    for (const literal of lexed.quoted) {
      // A literal with a line break inside is a block of code, not a name; it is still read.
      if (!/[\r\n]/.test(literal)) {
        addWord(literal, acc, false);
        if (literal.includes("\\")) addWord(cEscapes(literal), acc, false);
      }
      if (/[\s"'(),;=`]/.test(literal)) collect(literal, depth + 1, acc);
    }
  }
}

/**
 * Every reading of `command`; see the comment on CommandReadings. `onWord` sees each word read
 * (see addWord) and may throw to stop reading.
 */
export function commandReadings(command: string, onWord: (word: string) => void = () => {}): CommandReadings {
  // Code inside code is read again, once per distinct text; benign commands use a fraction of this.
  const budget = 8 * command.length + 65_536;
  const acc: Acc = {
    onWord,
    seen: new Set(),
    raw: new Set(),
    budget,
    words: new Set(),
    globs: new Set(),
    fetched: new Set(),
  };
  collect(command, 0, acc);
  const out: CommandReadings = {
    words: [...acc.words],
    globFolders: [...acc.globs],
    fetched: [...acc.fetched],
  };
  if (acc.unjudgeable !== undefined) out.unjudgeable = acc.unjudgeable;
  return out;
}

/** The path candidates of `command` (commandReadings' words). */
export function commandTokens(command: string): string[] {
  return commandReadings(command).words;
}
