/**
 * Text as a model would read it, for content signatures: invisible characters removed,
 * compatibility forms and look-alike letters folded, and hidden or encoded layers revealed.
 * All work is bounded (MAX_TEXT characters per layer, MAX_LAYERS layers, MAX_ROUNDS of decoding),
 * because this runs on every response from a source server.
 */
import { CONFUSABLES } from "../text/confusables.js";
import { decodeIfText } from "./binary-run.js";
import { FoldedText, SPACING } from "./folded-text.js";
import { MAX_TEXT } from "./scan-budget.js";

export const MAX_LAYERS = 64;
const MAX_ROUNDS = 3;

export interface Layer {
  /** How the text was found: `plain`, `base64`, `percent`, `html-comment`, `hidden-markup`, nested as `base64>percent`. */
  via: string;
  /** Hidden layers are text a human reviewing the output would not see. */
  hidden: boolean;
  text: string;
}

// Zero-width, soft hyphen, word joiners, BOM, bidi embeddings/overrides/isolates.
const INVISIBLE = /[\u00ad\u180e\u200b-\u200f\u202a-\u202e\u2060-\u2064\u2066-\u2069\ufeff]/g;

const CONFUSABLE_RE = new RegExp(`[${Object.keys(CONFUSABLES).join("")}]`, "g");

/** Folded, lower-case text with whitespace runs collapsed. */
export function fold(text: string): string {
  const t = text.slice(0, MAX_TEXT);
  return foldByIslands(t) ?? foldCharacters(t).replace(SPACING, " ");
}

/** Everything `fold` does but collapse spacing, over the whole text at once. */
function foldCharacters(t: string): string {
  return t
    .replace(INVISIBLE, "")
    .normalize("NFKC")
    .toLowerCase()
    .replace(CONFUSABLE_RE, (c) => CONFUSABLES[c] ?? c);
}

/** A run of characters above ASCII: the only ones that need more than lower-casing. */
const NON_ASCII_RUN = /[^\0-\x7f]+/g;
/** Past this many runs per character, folding piece by piece costs more than folding it whole. */
const CHARS_PER_ISLAND = 1024;
const CAPITAL_SIGMA = "\u03a3";

/**
 * `fold(t)`, with `foldCharacters` computed only on the few runs of non-ASCII characters in
 * mostly-ASCII text (source code with a stray `©` or `…`): the rest is only lower-cased, which is
 * what `foldCharacters` does to ASCII, and its spacing collapsed (folded-text.ts says why piece
 * by piece is the same). Undefined when it cannot be done that way.
 *
 * Why piecewise gives the same text: removing invisible characters and replacing look-alikes
 * act on single characters; NFKC never combines across the start of an ASCII character (every
 * ASCII character is a normalisation boundary: it neither decomposes nor composes with what
 * precedes it), so each run is cut off with the ASCII character before it, which an accent may
 * compose with; and lower-casing depends on context only for a capital sigma (final form
 * before a non-letter), so a run that normalises to one is left to the whole-text path.
 */
function foldByIslands(t: string): string | undefined {
  const most = Math.ceil(t.length / CHARS_PER_ISLAND);
  const out = new FoldedText(t);
  let islands = 0;
  let done = 0;
  NON_ASCII_RUN.lastIndex = 0;
  for (let m = NON_ASCII_RUN.exec(t); m !== null; m = NON_ASCII_RUN.exec(t)) {
    if (++islands > most) return undefined;
    // Runs are apart, so the ASCII character before this one is never part of the last.
    const start = Math.max(m.index - 1, done);
    out.ascii(done, start);
    done = m.index + m[0].length;
    const island = foldIsland(t.slice(start, done));
    if (island === undefined) return undefined;
    out.folded(island);
  }
  out.ascii(done, t.length);
  return out.text();
}

/** `foldCharacters` of one run, or undefined when it normalises to a capital sigma. */
function foldIsland(run: string): string | undefined {
  const normal = run.replace(INVISIBLE, "").normalize("NFKC");
  if (normal.includes(CAPITAL_SIGMA)) return undefined;
  return normal.toLowerCase().replace(CONFUSABLE_RE, (c) => CONFUSABLES[c] ?? c);
}

/** Shortest run of base64 characters worth decoding. */
const MIN_RUN = 24;
/** Both base64 alphabets (standard and URL-safe), by ASCII code; nothing above ASCII is in them. */
const IN_ALPHABET = new Uint8Array(128);
for (const c of "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/_-")
  IN_ALPHABET[c.charCodeAt(0)] = 1;
/** The rest of a run already known to be long: the engine reads a long run faster than a JS loop. */
const RUN_TAIL = /[A-Za-z0-9+/_-]*/y;

function inAlphabet(text: string, i: number): boolean {
  const c = text.charCodeAt(i);
  return c < 128 && IN_ALPHABET[c] === 1;
}
const PERCENT = /(?:%[0-9a-fA-F]{2}){3,}/;
const HTML_COMMENT = /<!--([\s\S]*?)-->/g;
const HIDDEN_ELEMENT =
  /<(\w+)[^>]*(?:display\s*:\s*none|visibility\s*:\s*hidden|font-size\s*:\s*0|aria-hidden\s*=\s*["']?true|\bhidden\b)[^>]*>([\s\S]*?)<\/\1>/gi;
/**
 * Words every HIDDEN_ELEMENT match holds, matched with the same case folding. The element regex
 * is slow on code (each `a<b` reads on to the next `>` once per length of `b`), and most text
 * has neither a closing tag nor any of these words, so it runs only on text that has both.
 */
const HIDING_WORD = /display|visibility|font-size|hidden/i;

function mayHideMarkup(text: string): boolean {
  return text.includes("</") && HIDING_WORD.test(text);
}

/**
 * Every run of 24 or more base64 characters (either alphabet), with up to two `=` after it: each
 * maximal run, in order. A regex reads every character of ordinary text and tries a match at each
 * one; this looks first at the character MIN_RUN - 1 ahead, since any long run starting at or
 * before it must cover it, and skips the whole stretch when it is not in the alphabet.
 */
export function* base64Runs(text: string): Generator<string> {
  // Invariant: the character before `from` is not in the alphabet, so no run crosses it.
  let from = 0;
  while (from + MIN_RUN <= text.length) {
    const probe = from + MIN_RUN - 1;
    if (!inAlphabet(text, probe)) {
      from = probe + 1;
      continue;
    }
    let start = probe;
    while (start > from && inAlphabet(text, start - 1)) start--;
    let end = probe + 1;
    while (end < start + MIN_RUN && end < text.length && inAlphabet(text, end)) end++;
    if (end >= start + MIN_RUN) {
      RUN_TAIL.lastIndex = end;
      RUN_TAIL.exec(text);
      end = RUN_TAIL.lastIndex;
      let padded = end;
      while (padded < end + 2 && text.charCodeAt(padded) === 61 /* = */) padded++;
      yield text.slice(start, padded);
    }
    // `end` is past the text or on a character outside the alphabet (`=` included).
    from = end + 1;
  }
}

function decodeBase64(run: string): string | undefined {
  // A hex digest (git hash, checksum) is also valid base64; it never decodes to words.
  if (/^[0-9a-f]+$/i.test(run)) return undefined;
  // Node's base64 decoder also reads the URL-safe alphabet (`-`, `_`). Decoded binary is not an
  // instruction: only mostly printable text counts.
  return decodeIfText(Buffer.from(run, "base64"));
}

function decodePercent(s: string): string | undefined {
  // Every match holds a `%`: finding none is many times cheaper than the expression's pass.
  if (!s.includes("%") || !PERCENT.test(s)) return undefined;
  try {
    return decodeURIComponent(s.replace(/\+/g, " "));
  } catch {
    return s.replace(/(?:%[0-9a-fA-F]{2})+/g, (m) => {
      try {
        return decodeURIComponent(m);
      } catch {
        return m;
      }
    });
  }
}

/** Direct children of one layer: what its encodings and hidden markup contain. */
function children(layer: Layer): Layer[] {
  const out: Layer[] = [];
  // Never longer than MAX_TEXT: the plain layer is cut to it, and every child is shorter than its parent.
  const text = layer.text;
  const via = (k: string) => (layer.via === "plain" ? k : `${layer.via}>${k}`);
  // The groups read below are not optional: every match has them.
  // Every comment opens with `<!--`: text without one skips the expression's pass.
  if (text.includes("<!--"))
    for (const m of text.matchAll(HTML_COMMENT))
      out.push({ via: via("html-comment"), hidden: true, text: m[1] as string });
  if (mayHideMarkup(text))
    for (const m of text.matchAll(HIDDEN_ELEMENT))
      out.push({ via: via("hidden-markup"), hidden: true, text: m[2] as string });
  const pct = decodePercent(text);
  if (pct !== undefined && pct !== text) out.push({ via: via("percent"), hidden: layer.hidden, text: pct });
  for (const run of base64Runs(text)) {
    const decoded = decodeBase64(run);
    // Encoded text is hidden from a human reader, so it counts as a hidden layer.
    if (decoded !== undefined) out.push({ via: via("base64"), hidden: true, text: decoded });
    if (out.length >= MAX_LAYERS) break;
  }
  return out;
}

/** The plain text and every layer revealed beneath it, each folded, within the bounds above. */
export function revealLayers(text: string): Layer[] {
  return revealLayersCapped(text).layers;
}

/**
 * `revealLayers`, and whether it stopped at MAX_LAYERS or MAX_ROUNDS with something left to
 * reveal, so that a cut is never silent.
 */
export function revealLayersCapped(text: string): { layers: Layer[]; capped: boolean } {
  const layers: Layer[] = [{ via: "plain", hidden: false, text: text.slice(0, MAX_TEXT) }];
  let frontier = layers.slice();
  let capped = false;
  for (let round = 0; round < MAX_ROUNDS && !capped; round++) {
    const next: Layer[] = [];
    for (const layer of frontier) {
      for (const child of children(layer)) {
        if (layers.length >= MAX_LAYERS) {
          capped = true;
          break;
        }
        layers.push(child);
        next.push(child);
      }
      if (capped) break;
    }
    frontier = next;
  }
  // Out of rounds: the deepest layers are looked into once more, only to know.
  if (!capped) capped = frontier.some((l) => children(l).length > 0);
  return { layers: layers.map((l) => ({ ...l, text: fold(l.text) })), capped };
}
