// The bytes of secret files a session has read, kept so that a later call carrying them out is
// seen (decision 0091). Only hashes of the file's secret-looking tokens are kept, in memory:
// never the text, never on disk, never in a log. A token is a run of characters that are not
// spacing, quotes or the punctuation of config files (`=`, `:`, `,`, `;`, brackets), read once
// whole and once cut at `/` as well (a URL path puts a secret between slashes; base64 holds
// slashes of its own). Only long, mixed tokens count (a key, a password, a base64 line of a
// private key), so that `region`, `localhost` or `us-east-1` do not mark every message that
// names them; of a `NAME=value` line only the value counts, since names are not secret.
import { createHash } from "node:crypto";

const SEPARATORS = /[\s"'`=:;,&?#<>()[\]{}|\\]+/;
const SLASHES = /\/+/;
/** `NAME=value`, `name: value`, `export NAME=value`: an assignment whose value is not empty. */
const ASSIGNMENT = /^\s*(?:export\s+)?[A-Za-z_][A-Za-z0-9_.-]*\s*[=:]\s*(\S.*)$/;
const MIN_TOKEN = 12;
/** Tokens remembered per session; past it the oldest files' tokens are still kept, new ones not. */
const MAX_TOKENS = 100_000;

/** Whether a token looks like secret material: long, and at least two of lower, upper, digit. */
export function secretToken(token: string): boolean {
  if (token.length < MIN_TOKEN) return false;
  const classes = [/[a-z]/, /[A-Z]/, /[0-9]/].filter((re) => re.test(token)).length;
  if (classes < 2) return false;
  // A path or URL names a place, not a secret: `/usr/local/bin/node`, `https://x/y`.
  if (/^(?:[a-z][a-z0-9+.-]*:\/\/|[~.]?\/)/i.test(token)) return false;
  return new Set(token).size >= 6;
}

/** Spacing and quotes only: a password with `&` or `=` in it stays one token. */
const COARSE = /[\s"'`]+/;

/** The secret-looking tokens of outgoing text: between spacing, between punctuation, and cut at slashes. */
function tokensOf(text: string): string[] {
  const out: string[] = [];
  for (const t of text.split(COARSE)) if (secretToken(t) && SEPARATORS.test(t)) out.push(t);
  for (const t of text.split(SEPARATORS)) {
    if (secretToken(t)) out.push(t);
    if (t.includes("/")) for (const part of t.split(SLASHES)) if (secretToken(part)) out.push(part);
  }
  return out;
}

/** The tokens of a secret file: of each assignment its value only, of other lines everything. */
export function fileTokens(text: string): string[] {
  return text.split(/\r?\n/).flatMap((line) => tokensOf(ASSIGNMENT.exec(line)?.[1] ?? line));
}

/** `.env`, `.env.local`, `prod.env`, `.envrc`: files that hold an application's secrets by convention. */
export function isEnvFile(path: string): boolean {
  const name = path.split(/[\\/]/).pop() ?? "";
  return (
    /^\.env(?:\..+)?$|^.+\.env$|^\.envrc$/i.test(name) && !/\.(?:example|sample|template|dist)$/i.test(name)
  );
}

const digest = (token: string): string => createHash("sha256").update(token).digest("base64").slice(0, 22);

export interface SecretFiles {
  /** Remember the secret tokens of `text`, read from the file `source` (a canonical path). */
  remember(source: string, text: string): void;
  /** The file whose bytes `text` carries, if any. */
  carried(text: string): string | undefined;
  /** How many tokens are remembered (for tests; says nothing of their values). */
  readonly size: number;
}

export function createSecretFiles(): SecretFiles {
  const bySum = new Map<string, string>();
  return {
    remember(source: string, text: string): void {
      for (const t of fileTokens(text)) {
        if (bySum.size >= MAX_TOKENS) return;
        const sum = digest(t);
        if (!bySum.has(sum)) bySum.set(sum, source);
      }
    },
    carried(text: string): string | undefined {
      if (bySum.size === 0) return undefined;
      for (const t of tokensOf(text)) {
        const source = bySum.get(digest(t));
        if (source !== undefined) return source;
      }
      return undefined;
    },
    get size() {
      return bySum.size;
    },
  };
}
