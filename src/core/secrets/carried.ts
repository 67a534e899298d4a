// What secrets a call's arguments carry: validated credential formats and bytes of secret files
// read in this session, in every reading decode.ts gives, in each argument and across all of
// them joined (a key split in two halves). Findings name the kind and the argument, never the value.
import { decodedViews } from "./decode.js";
import type { SecretFiles } from "./fingerprints.js";
import { AWS_PAIR, awsKeyIds, awsSecretCandidates, findSecrets } from "./formats.js";

export interface Carried {
  /** `aws-access-key-pair`, `secret-file`, … */
  id: string;
  /** `an AWS access key with its secret`, `bytes of /home/u/.env, read in this session`. */
  kind: string;
  /** `arguments.body`, or `arguments (split across them)`. */
  at: string;
  /** How it was written: `plain`, `base64`, `percent>base64`. */
  via: string;
}

export interface CarriedScan {
  found: Carried[];
  /** Set when the decoding stopped at its bounds with more to read: the arguments cannot be called clean. */
  capped?: string;
}

/** Every string under `value` (keys too), in order. */
function stringsOf(value: unknown, out: string[], depth = 0): void {
  if (depth > 64) return; // extraction's budget (48 levels) has already refused anything deeper
  if (typeof value === "string") out.push(value);
  else if (Array.isArray(value)) for (const v of value) stringsOf(v, out, depth + 1);
  else if (value !== null && typeof value === "object")
    for (const [k, v] of Object.entries(value)) {
      out.push(k);
      stringsOf(v, out, depth + 1);
    }
}

/** What the views of every text held of an AWS pair, for a pair spread over several of them. */
interface PairParts {
  id?: { at: string; via: string };
  /** Every view read, for the secret half: looked for only once an id was found somewhere. */
  texts: Array<{ at: string; via: string; text: string }>;
}

/** The prefixes of AWS key ids: most text has none, and the id expression is not run on it. */
const AWS_ID_MARK = /A[KS]IA|ABIA|ACCA/;

function scan(
  text: string,
  at: string,
  files: SecretFiles | undefined,
  into: Carried[],
  seen: Set<string>,
  pair: PairParts,
): boolean {
  const { views, capped } = decodedViews(text);
  for (const view of views) {
    if (pair.id === undefined && AWS_ID_MARK.test(view.text) && awsKeyIds(view.text).length > 0)
      pair.id = { at, via: view.via };
    pair.texts.push({ at, via: view.via, text: view.text });
    for (const f of findSecrets(view.text)) {
      if (seen.has(f.id)) continue;
      seen.add(f.id);
      into.push({ id: f.id, kind: f.kind, at, via: view.via });
    }
    const source = files?.carried(view.text);
    if (source !== undefined && !seen.has(`file:${source}`)) {
      seen.add(`file:${source}`);
      into.push({ id: "secret-file", kind: `bytes of ${source}, read in this session`, at, via: view.via });
    }
  }
  return capped;
}

/** A piece of a token: no spacing, at most 256 characters. Prose is never a piece. */
const PIECE = /^[A-Za-z0-9+/=_.:-]{4,256}$/;

/** Each run of two or three token-like strings in a row, joined with nothing between. */
function pieceWindows(strings: readonly string[]): string[] {
  const out: string[] = [];
  for (let i = 0; i + 1 < strings.length; i++) {
    const a = strings[i] ?? "";
    const b = strings[i + 1] ?? "";
    if (!PIECE.test(a) || !PIECE.test(b)) continue;
    out.push(a + b);
    const c = strings[i + 2];
    if (c !== undefined && PIECE.test(c)) out.push(a + b + c);
  }
  return out;
}

/** The secrets `args` carry; `files` are the secret files this session has read, if any. */
export function carriedSecrets(args: Record<string, unknown>, files?: SecretFiles): CarriedScan {
  const found: Carried[] = [];
  const seen = new Set<string>();
  const capped: string[] = [];
  const all: string[] = [];
  const pair: PairParts = { texts: [] };
  const entries = Object.entries(args);
  for (const [name, value] of entries) {
    const strings: string[] = [];
    stringsOf(value, strings);
    all.push(...strings);
    if (scan(strings.join("\n"), `arguments.${name}`, files, found, seen, pair))
      capped.push(`arguments.${name}`);
  }
  // Halves of one secret in two arguments, or in two strings of one argument, meet with nothing
  // between them: all strings joined, and each run of two or three token-like strings in a row.
  if (all.length > 1) {
    const split = "arguments (split across them)";
    if (scan(all.join(""), split, files, found, seen, pair)) capped.push("the arguments joined");
    for (const text of pieceWindows(all))
      if (scan(text, split, files, found, seen, pair)) capped.push("the arguments joined");
  }
  const secret =
    seen.has(AWS_PAIR.id) || pair.id === undefined
      ? undefined
      : pair.texts.find((t) => awsSecretCandidates(t.text).length > 0);
  if (pair.id !== undefined && secret !== undefined) {
    const at = pair.id.at === secret.at ? pair.id.at : "arguments (split across them)";
    const via = secret.via === "plain" ? pair.id.via : secret.via;
    found.push({ ...AWS_PAIR, at, via });
  }
  const out: CarriedScan = { found };
  if (capped.length > 0) out.capped = `too many encoded layers to read for secrets in ${capped.join(", ")}`;
  return out;
}
