// The readings of outgoing text an exfiltration would use to hide a secret: percent-encoding
// (once, twice, three times), base64 in either alphabet, hex (plain, `\x67`, `67:68`), and
// invisible characters slipped inside a token. Each is decoded before the secret formats and
// the fingerprints look (decision 0091). Bounded: at most MAX_VIEWS readings, MAX_ROUNDS deep,
// MAX_DECODED characters in all, since this runs on every call that sends.
import { decodeIfText } from "../taint/binary-run.js";
import { base64Runs } from "../taint/normalise.js";

export interface View {
  /** `plain`, or how the text was decoded: `base64`, `percent>base64`. */
  via: string;
  text: string;
}

const MAX_VIEWS = 256;
const MAX_ROUNDS = 3;
const MAX_DECODED = 4 * 1024 * 1024;

const PERCENT = /%[0-9a-fA-F]{2}/;
/**
 * 16 or more bytes of hex: plain (plainHexRuns below), each byte written `\x67` or `0x67`, or
 * bytes apart by `:`, `-`, `,` or a space. Separate expressions rather than one with optional
 * parts: on prose, whose letters a to f are hex digits, that one tried long matches everywhere.
 */
const HEX_RUNS = [/(?:(?:\\x|0x)[0-9a-fA-F]{2}){16,}/g, /(?:[0-9a-fA-F]{2}[:, -]){15,}[0-9a-fA-F]{2}/g];
const INVISIBLE_CHARS = "\u00ad\u180e\u200b-\u200f\u202a-\u202e\u2060-\u2064\u2066-\u2069\ufeff";
const HAS_INVISIBLE = new RegExp(`[${INVISIBLE_CHARS}]`);
const INVISIBLE = new RegExp(`[${INVISIBLE_CHARS}]`, "g");

function percentDecoded(text: string): string | undefined {
  if (!PERCENT.test(text)) return undefined;
  // Piece by piece: one malformed escape must not hide the rest.
  return text.replace(/(?:%[0-9a-fA-F]{2})+/g, (m) => {
    try {
      return decodeURIComponent(m);
    } catch {
      return m;
    }
  });
}

const isHexDigit = (c: number): boolean =>
  (c >= 48 && c <= 57) || (c >= 65 && c <= 70) || (c >= 97 && c <= 102);

/**
 * Runs of 32 or more plain hex digits, found by a loop: a regular expression's backtracking
 * stack overflows on a run of some MiB (`/[0-9a-f]{32,}/` threw on 8 MiB of hex), and the
 * call would be refused as unjudgeable.
 */
function* plainHexRuns(text: string): Generator<string> {
  let start = -1;
  for (let i = 0; i <= text.length; i++) {
    if (i < text.length && isHexDigit(text.charCodeAt(i))) {
      if (start < 0) start = i;
    } else if (start >= 0) {
      if (i - start >= 32) yield text.slice(start, i);
      start = -1;
    }
  }
}

function hexDecoded(run: string): string | undefined {
  const digits = run.replace(/\\x|0x|[:, -]/g, "");
  if (digits.length % 2 !== 0 || digits.length < 32) return undefined;
  return decodeIfText(Buffer.from(digits, "hex"));
}

function children(text: string): Array<{ via: string; text: string }> {
  const out: Array<{ via: string; text: string }> = [];
  const pct = percentDecoded(text);
  if (pct !== undefined && pct !== text) out.push({ via: "percent", text: pct });
  if (HAS_INVISIBLE.test(text)) out.push({ via: "invisible", text: text.replace(INVISIBLE, "") });
  for (const run of base64Runs(text)) {
    // A hex digest is valid base64 too; it is read as hex below.
    if (/^[0-9a-fA-F]+$/.test(run)) continue;
    const decoded = decodeIfText(Buffer.from(run, "base64"));
    if (decoded !== undefined) out.push({ via: "base64", text: decoded });
  }
  const runs = [plainHexRuns(text), ...HEX_RUNS.map((re) => Array.from(text.matchAll(re), (m) => m[0]))];
  for (const found of runs)
    for (const run of found) {
      const decoded = hexDecoded(run);
      if (decoded !== undefined) out.push({ via: "hex", text: decoded });
    }
  return out;
}

/**
 * `text` and every reading decoded from it, breadth first, within the bounds; `capped` when a
 * bound stopped the decoding with more to read (the caller must not call the text clean).
 */
export function decodedViews(text: string): { views: View[]; capped: boolean } {
  const views: View[] = [{ via: "plain", text }];
  const seen = new Set([text]);
  let frontier = views.slice();
  let budget = MAX_DECODED;
  for (let round = 0; round < MAX_ROUNDS && frontier.length > 0; round++) {
    const next: View[] = [];
    for (const view of frontier) {
      for (const child of children(view.text)) {
        if (views.length >= MAX_VIEWS || budget < child.text.length) return { views, capped: true };
        if (seen.has(child.text)) continue;
        seen.add(child.text);
        budget -= child.text.length;
        const v = { via: view.via === "plain" ? child.via : `${view.via}>${child.via}`, text: child.text };
        views.push(v);
        next.push(v);
      }
    }
    frontier = next;
  }
  // Out of rounds: whether the deepest readings still hold something to decode.
  return { views, capped: frontier.some((v) => children(v.text).some((c) => !seen.has(c.text))) };
}
