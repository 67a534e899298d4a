/**
 * Every reading of one shell word a path rule may need to see. The canonicaliser expands `~/`
 * and set variables; a shell does more with a word before a program sees it, and each of those
 * steps is a way to spell a protected path that the plain word does not show
 * (docs/decisions/0062-exec-words-as-a-shell-reads-them.md). Each step here adds readings and
 * never removes one: the word as written stays a candidate, and the strictest verdict wins.
 */

/** More brace alternatives than this in one word is not judged (the call is refused as unjudgeable). */
const MAX_BRACE_WORDS = 256;
/** Readings of variables in one word; past this, each variable is varied on its own. */
const MAX_VARIABLE_READINGS = 64;
/** Glued short options: the value may start after any of the last this many option letters. */
const MAX_OPTION_LETTERS = 32;

export interface WordReadings {
  words: string[];
  /** Folders a glob in a word may reach into (`~/.ss?/k` → `~`): judged as whole folders. */
  globFolders: string[];
  /** Why the word cannot be read (brace expansion beyond MAX_BRACE_WORDS). */
  unjudgeable?: string;
}

/**
 * Values glued to an option: `--out=/x` and `-Path:/x` (after the first `=` or `:`), and for a
 * short-option cluster (`-o$HOME/x`, `-sSo/x`, `-drepo/.git`) every place the value may start,
 * since which letter takes the value is the program's business. A cluster of letters and digits
 * only (`-rf`, `-Recurse`, `-Werror`) is read as options.
 */
function gluedValues(word: string): string[] {
  const out: string[] = [];
  const eq = word.indexOf("=");
  if (eq > 0 && eq < word.length - 1) out.push(word.slice(eq + 1));
  if (word.startsWith("--")) return out;
  const letters = /^-([A-Za-z0-9]*)/.exec(word)?.[1] ?? "";
  const rest = word.slice(1 + letters.length);
  if (rest === "" || letters === "") return out;
  if (rest.startsWith(":")) {
    // PowerShell's `-Path:value`; `-oC:\x` is the value `C:\x` after `-o`.
    if (rest.length > 1) out.push(rest.slice(1));
    if (/^:[\\/]/.test(rest)) out.push(word.slice(letters.length));
    return out;
  }
  const first = Math.max(2, letters.length + 1 - MAX_OPTION_LETTERS);
  if (first > 2) out.push(word.slice(2));
  for (let k = first; k <= letters.length + 1; k++) out.push(word.slice(k));
  return out;
}

/** A sequence expression's members (`a..e`, `1..10`, `01..10..2`), or undefined when it is none. */
function sequence(inner: string, cap: number): string[] | undefined | "over" {
  const num = /^(-?\d+)\.\.(-?\d+)(?:\.\.(-?\d+))?$/.exec(inner);
  const chr = /^([A-Za-z])\.\.([A-Za-z])(?:\.\.(-?\d+))?$/.exec(inner);
  const m = num ?? chr;
  if (m === null) return undefined;
  const from = num ? Number(m[1]) : (m[1] as string).charCodeAt(0);
  const to = num ? Number(m[2]) : (m[2] as string).charCodeAt(0);
  const step = Math.abs(Number(m[3] ?? 1)) || 1;
  if (Math.abs(to - from) / step + 1 > cap) return "over";
  // `{01..10}` pads to the wider end, as bash does.
  const padded = num !== null && [m[1], m[2]].some((s) => /^-?0\d/.test(s as string));
  const width = padded ? Math.max((m[1] as string).length, (m[2] as string).length) : 0;
  const out: string[] = [];
  for (let v = from; from <= to ? v <= to : v >= to; v += from <= to ? step : -step)
    out.push(num ? String(v).padStart(width, "0") : String.fromCharCode(v));
  return out;
}

/** The top-level alternatives of a brace group's inside, split at commas outside nested braces. */
function alternatives(inner: string): string[] | undefined {
  const out: string[] = [];
  let depth = 0;
  let from = 0;
  for (let i = 0; i < inner.length; i++) {
    const c = inner[i];
    if (c === "{") depth++;
    else if (c === "}") depth--;
    else if (c === "," && depth === 0) {
      out.push(inner.slice(from, i));
      from = i + 1;
    }
  }
  if (out.length === 0) return undefined;
  out.push(inner.slice(from));
  return out;
}

/**
 * Brace expansion as bash does it (`~/.ss{h,x}/k` → `~/.ssh/k`, `~/.ssx/k`; `{a..c}`), or
 * undefined past `cap` words. `${…}` is a variable, not a brace group; `{x}` and `{}` stay.
 */
function expandBraces(word: string, cap = MAX_BRACE_WORDS): string[] | undefined {
  const out: string[] = [];
  const walk = (w: string, from: number): boolean => {
    const close = closingBraces(w);
    for (let i = w.indexOf("{", from); i >= 0; i = w.indexOf("{", i + 1)) {
      const end = close.get(i);
      if (end === undefined || w[i - 1] === "$") continue;
      const inner = w.slice(i + 1, end);
      const alts = alternatives(inner) ?? sequence(inner, cap);
      if (alts === "over") return false;
      if (alts === undefined) continue;
      const pre = w.slice(0, i);
      const post = w.slice(end + 1);
      for (const a of alts) if (!walk(pre + a + post, i)) return false;
      return true;
    }
    out.push(w);
    return out.length <= cap;
  };
  return walk(word, 0) ? out : undefined;
}

/** Where each `{` of `w` that is closed is closed (one pass; an unclosed `{` is literal). */
function closingBraces(w: string): Map<number, number> {
  const close = new Map<number, number>();
  const open: number[] = [];
  for (let i = 0; i < w.length; i++) {
    if (w[i] === "{") open.push(i);
    else if (w[i] === "}" && open.length > 0) close.set(open.pop() as number, i);
  }
  return close;
}

/**
 * `~user/x` is that user's home: read as `~/../user/x` (homes are siblings; it is `~/x` when
 * the user is the one running the server). `~+` is the shell's current folder, `~-` the last.
 */
function tildeReadings(word: string): string[] {
  const m = /^~([^/\\]*)(.*)$/s.exec(word);
  if (m === null) return [];
  const [, user = "", rest = ""] = m;
  if (user === "") return [];
  if (user === "+") return [`.${rest}`, `$PWD${rest}`];
  if (user === "-") return [`$OLDPWD${rest}`];
  if (/^[A-Za-z_][\w.-]*\$?$/.test(user)) return [`~/../${user}${rest}`];
  return [];
}

/** `$NAME`, `${…}`, `$env:NAME`, `$1`, `$@`, `$?`, … (a `$` before `(` or `'` is something else). */
const VARIABLE = /\$(?:\{([^{}]*)\}|env:([A-Za-z_]\w*)|([A-Za-z_]\w*)|([0-9@*#?$!-]))/g;

/**
 * What one variable reference may stand for, as text the canonicaliser can read: itself (set),
 * nothing (unset: `$NOTSET$HOME/x` is `$HOME/x`), the word of `${X:-word}`, or, for forms that
 * cut the value (`${HOME%/}`, `${HOME%/*}`, `${X/a/b}`), the variable and its parent folders.
 */
function variableAlternatives(whole: string, braced: string | undefined): string[] {
  if (braced === undefined) return [whole, ""];
  const m = /^([#!]?)([A-Za-z_]\w*|[0-9@*#?$!-])(.*)$/s.exec(braced);
  if (m === null) return [whole, ""];
  const [, prefix = "", name = "", op = ""] = m;
  const plain = /^[A-Za-z_]/.test(name) ? `\${${name}}` : whole;
  if (prefix !== "") return [whole, ""]; // a length or an indirection: a number or unknowable
  if (op === "") return [whole, ""];
  const dflt = /^(:?[-=+?])(.*)$/s.exec(op);
  if (dflt !== null) {
    const [, kind = "", word = ""] = dflt;
    if (kind.endsWith("+")) return [word, ""];
    if (kind.endsWith("?")) return [plain];
    return [plain, word, ""];
  }
  // %, %%, #, ##, /, //, ^, ,, :offset, @…: a piece of the value. Which piece cannot be known
  // here; the value itself and its parent folders are the pieces a path can be built from.
  return [plain, `${plain}/..`, `${plain}/../..`, `${plain}/../../..`, ""];
}

/** Every combination of what the variables in `word` may stand for (bounded). */
function variableReadings(word: string): string[] {
  if (!word.includes("$")) return [];
  const parts: string[] = [];
  const choices: string[][] = [];
  let last = 0;
  for (const m of word.matchAll(VARIABLE)) {
    parts.push(word.slice(last, m.index));
    choices.push(variableAlternatives(m[0], m[1]));
    last = m.index + m[0].length;
  }
  if (choices.length === 0) return [];
  parts.push(word.slice(last));
  const render = (picked: readonly string[]) => {
    let s = parts[0] as string;
    picked.forEach((p, i) => {
      const after = parts[i + 1] as string;
      // `$A` kept before text that continues a name would read as another variable.
      const safe = /^\$[A-Za-z_]\w*$/.test(p) && /^\w/.test(after) ? `\${${p.slice(1)}}` : p;
      s += safe + after;
    });
    return s;
  };
  const total = choices.reduce((n, c) => n * c.length, 1);
  const out: string[] = [];
  if (total <= MAX_VARIABLE_READINGS) {
    const walk = (i: number, picked: string[]) => {
      if (i === choices.length) return void out.push(render(picked));
      for (const c of choices[i] as string[]) walk(i + 1, [...picked, c]);
    };
    walk(0, []);
    return out;
  }
  // Too many combinations: vary one variable at a time, the others set, then the others unset.
  for (const others of [(c: string[]) => c[0] as string, () => ""]) {
    choices.forEach((c, i) => {
      for (const alt of c) out.push(render(choices.map((d, k) => (k === i ? alt : others(d)))));
    });
  }
  return out;
}

/** Glob characters a shell expands: `*`, `?` (not `$?`), and `[` with a `]` later in the same name. */
function firstGlob(word: string): number {
  for (let i = 0; i < word.length; i++) {
    const c = word[i];
    if (c === "/" || c === "\\") continue;
    if (c === "*") return i;
    if (c === "?" && word[i - 1] !== "$") return i;
    if (c === "[") {
      const close = word.indexOf("]", i + 2);
      const sep = word.slice(i).search(/[\\/]/);
      if (close > 0 && (sep < 0 || close < i + sep)) return i;
    }
  }
  return -1;
}

/**
 * The folder a glob in `word` may reach into: the literal folders before the first name with a
 * glob in it (`~/.ss?/k` → `~`, `/etc/cron.*` + `/x` → `/etc`, `.git/hook?/x` → `.git`, `*` + `/k` → `.`).
 * Only for words with a separator: a lone `*.ts` or `.*` is mostly a pattern or a regular
 * expression, and names one folder's own files (docs/policy.md, Limits).
 */
function globFolder(word: string): string | undefined {
  if (!/[\\/]/.test(word) || /^(?:[\\/]{2}[?.][\\/]|\\\?\?\\)/.test(word) || /^[a-z]+:\/\//i.test(word))
    return undefined;
  const g = firstGlob(word);
  if (g < 0) return undefined;
  const sep = Math.max(word.lastIndexOf("/", g), word.lastIndexOf("\\", g));
  if (sep < 0) return ".";
  if (sep === 0) return word[0];
  const folder = word.slice(0, sep);
  return /^[A-Za-z]:$/.test(folder) ? folder + word[sep] : folder;
}

/**
 * Every reading of one dequoted word: the word (or, for an option, the values glued to it), its
 * `=` value, brace alternatives, `~user`/`~+`, and what its variables may stand for; plus the
 * folders its globs reach into.
 */
/** A word none of whose characters starts another reading (most words: `npm`, `src/x.ts`). */
const PLAIN = /^[^-={}~$*?[][^={}~$*?[]*$/;

export function wordReadings(word: string): WordReadings {
  if (PLAIN.test(word)) return { words: [word], globFolders: [] };
  const base: string[] = [];
  if (word.startsWith("-")) base.push(...gluedValues(word));
  else {
    base.push(word);
    // `VAR=/path`, `if=/dev/sda`: the value is a candidate too.
    const eq = word.indexOf("=");
    if (eq > 0 && eq < word.length - 1) base.push(word.slice(eq + 1));
  }
  const words = new Set<string>();
  const globFolders = new Set<string>();
  for (const b of base) {
    const braced = b.includes("{") ? expandBraces(b) : [b];
    if (braced === undefined)
      return {
        words: [...words],
        globFolders: [...globFolders],
        unjudgeable: `the command word ${JSON.stringify(b.slice(0, 200))} expands to more than ${MAX_BRACE_WORDS} words`,
      };
    // The word as written stays a candidate: a quoted `{a,b}` is literal.
    for (const e of braced[0] === b ? braced : [b, ...braced]) {
      for (const t of [e, ...tildeReadings(e)]) {
        for (const r of [t, ...variableReadings(t)]) {
          if (r === "") continue;
          words.add(r);
          const folder = globFolder(r);
          if (folder !== undefined) {
            globFolders.add(folder);
            words.add(folder);
          }
        }
      }
    }
  }
  return { words: [...words], globFolders: [...globFolders] };
}
