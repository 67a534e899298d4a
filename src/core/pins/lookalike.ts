// Tool names that look alike (decision 0092). `read_fіle` with a Cyrillic і prints exactly like
// `read_file`; a model asked to read a file may call either, and a server that lists both is
// offering a decoy. Two names look alike when they differ only by case, compatibility forms
// (full-width letters), invisible characters, and letters of other scripts (or digits) that
// render like Latin ones: their skeletons are equal. Such a tool is flagged by `approve` with its
// code points and refused at enforce unless the lock pins it by exactly that name.
import { CONFUSABLES } from "../text/confusables.js";

/**
 * Characters that print as nothing: removed before comparing (and shown as code points).
 * Variation selectors are listed as ranges of single code points, not as marks on the
 * character before them, which is what no-misleading-character-class guards against.
 */
const INVISIBLE =
  // eslint-disable-next-line no-misleading-character-class
  /[\p{Cf}\p{Default_Ignorable_Code_Point}\u{E0000}-\u{E007F}\u{FE00}-\u{FE0F}\u{E0100}-\u{E01EF}]/gu;

/** ASCII characters that render like another: `I`, `1` and `|` like `l`; `0` like `o`. */
const ASCII_ALIKE: Readonly<Record<string, string>> = { I: "l", "1": "l", "|": "l", "0": "o", O: "o" };

/** Latin letters outside ASCII that render like an ASCII one. */
const LATIN_ALIKE: Readonly<Record<string, string>> = { ı: "i", ɑ: "a", ɡ: "g", ɩ: "i", ʟ: "l", ℓ: "l" };

const latin = (s: string) =>
  Array.from(s.toLowerCase().normalize("NFKC"), (c) => CONFUSABLES[c] ?? LATIN_ALIKE[c] ?? c).join("");

/**
 * The forms look-alike names share: read case-blind (`READ_FILE` is `read_file`) and read by
 * glyph (`read_fiIe`, with a capital I, is `read_file`). A capital I is an i to the one and an
 * l to the other, so two names look alike when either form is equal.
 */
function skeletons(name: string): [string, string] {
  const plain = name.normalize("NFKC").replace(INVISIBLE, "");
  const glyphs = Array.from(plain, (c) => ASCII_ALIKE[c] ?? c).join("");
  return [latin(plain), latin(glyphs)];
}

const alike = (a: string, b: string): boolean => {
  const [a1, a2] = skeletons(a);
  const [b1, b2] = skeletons(b);
  return a1 === b1 || a2 === b2;
};

/** A name with every character outside printable ASCII shown as its code point: `read_f[U+0456]le`. */
export function withCodePoints(name: string): string {
  return Array.from(name, (c) => {
    const code = c.codePointAt(0) ?? 0;
    return code >= 0x21 && code <= 0x7e ? c : `[U+${code.toString(16).toUpperCase().padStart(4, "0")}]`;
  }).join("");
}

/** Groups of two or more distinct names that look alike, each sorted, in order of first name. */
export function lookAlikeGroups(names: Iterable<string>): string[][] {
  // Names joined by a shared form, either of the two: a small union-find over the forms.
  const parent = new Map<string, string>();
  const find = (x: string): string => {
    let r = x;
    while (parent.get(r) !== r) r = parent.get(r) ?? r;
    parent.set(x, r);
    return r;
  };
  const unique = [...new Set(names)];
  const owner = new Map<string, string>();
  for (const n of unique) {
    parent.set(n, n);
    for (const [i, k] of skeletons(n).entries()) {
      const key = `${i}:${k}`;
      const other = owner.get(key);
      if (other === undefined) owner.set(key, n);
      else parent.set(find(n), find(other));
    }
  }
  const groups = new Map<string, string[]>();
  for (const n of unique) groups.set(find(n), [...(groups.get(find(n)) ?? []), n]);
  return [...groups.values()]
    .filter((g) => g.length > 1)
    .map((g) => g.sort())
    .sort((a, b) => ((a[0] ?? "") < (b[0] ?? "") ? -1 : 1));
}

/** A sentence naming the look-alikes with their code points. */
export function lookAlikeSentence(group: readonly string[]): string {
  const shown = group.map((n) => `"${withCodePoints(n)}"`).join(", ");
  return `tools ${shown} differ only by case or by characters that look alike`;
}

/**
 * Per-session memory of the tool names a server listed, for calls. Pure: the relay and `eval`
 * feed it every `tools/list` page and ask it about every `tools/call`.
 */
export class LookAlikes {
  private readonly listed = new Set<string>();

  /** `pinned`: the names the lock approves (exactly), when a lock is in use. */
  constructor(private readonly pinned?: ReadonlySet<string>) {}

  /** Names of one `tools/list` page; returns groups that now include a name of this page. */
  observeList(tools: readonly unknown[]): string[][] {
    const fresh: string[] = [];
    for (const t of tools) {
      const name = t !== null && typeof t === "object" ? (t as Record<string, unknown>)["name"] : undefined;
      if (typeof name === "string" && !this.listed.has(name)) {
        this.listed.add(name);
        fresh.push(name);
      }
    }
    return lookAlikeGroups(this.listed).filter((g) => g.some((n) => fresh.includes(n)));
  }

  /** A call to `name`: refused when another listed name looks like it and the lock does not pin it exactly. */
  checkCall(name: string): { ok: true } | { ok: false; reason: string } {
    if (this.pinned?.has(name) === true) return { ok: true };
    const others = [...this.listed].filter((n) => n !== name && alike(n, name)).sort();
    if (others.length === 0) return { ok: true };
    const like = others.map((n) => `"${withCodePoints(n)}"`).join(", ");
    return {
      ok: false,
      reason: `tool "${withCodePoints(name)}" looks like ${like}: the names differ only by case or by characters that look alike, and no lock pins "${withCodePoints(name)}" by that exact name`,
    };
  }
}
