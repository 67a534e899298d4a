// Credentials in text, by format, validated wherever the format allows (decision 0091). Only
// high-confidence formats: a prefix a provider reserved, a checksum, a structure that decodes.
// Documented examples (AWS's AKIAIOSFODNN7EXAMPLE, jwt.io's token, BIP-39's test vectors) are
// not credentials. What a finding says is the kind of secret, never its value.
import { crc32 } from "node:zlib";
import { validateMnemonic } from "@scure/bip39";
import { wordlist } from "@scure/bip39/wordlists/english.js";

export interface SecretFinding {
  /** Stable identifier, e.g. `aws-secret-key`. */
  id: string;
  /** Words for humans: `an AWS secret access key`. */
  kind: string;
}

const BASE62_ORDERS = [
  "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz",
  "0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ",
];

function base62(n: number, alphabet: string): string {
  let s = "";
  let rest = n;
  do {
    s = (alphabet[rest % 62] ?? "") + s;
    rest = Math.floor(rest / 62);
  } while (rest > 0);
  return s.padStart(6, "0");
}

/**
 * GitHub's and npm's token formats end in six base62 characters that are the CRC32 of the 30
 * random ones. The alphabet's order is not published; both orders scanners use are accepted,
 * which leaves a random string a chance of about 1 in 28 billion.
 */
export function validChecksumToken(token: string): boolean {
  const body = token.slice(-36, -6);
  const sum = token.slice(-6);
  const crc = crc32(Buffer.from(body, "ascii"));
  return BASE62_ORDERS.some((a) => base62(crc, a) === sum);
}

const GITHUB_TOKEN = /\b(gh[pousr]_[A-Za-z0-9]{36})\b/g;
const GITHUB_PAT = /\bgithub_pat_[A-Za-z0-9]{22}_[A-Za-z0-9]{59}\b/;
const NPM_TOKEN = /\b(npm_[A-Za-z0-9]{36})\b/g;

/** AWS key ids: a reserved prefix and 16 characters of base32. */
const AWS_KEY_ID = /\b(?:AKIA|ASIA|ABIA|ACCA)[A-Z2-7]{16}\b/g;
/** The secret that pairs with it: 40 characters of base64, not part of a longer run. */
const AWS_SECRET = /(?<![A-Za-z0-9/+])[A-Za-z0-9/+]{40}(?![A-Za-z0-9/+=])/g;
/** A secret named as one: `aws_secret_access_key = …`, `AWS_SECRET_ACCESS_KEY=…`, `"SecretAccessKey": "…"`. */
const AWS_SECRET_LABELLED =
  /(?:aws_?secret_?access_?key|secret_?access_?key)["']?\s*[:=]\s*["']?([A-Za-z0-9/+]{40})(?![A-Za-z0-9/+=])/gi;

/** A value made of both cases: a hex digest or a word in capitals is no secret key. */
const mixed = (s: string) => /[a-z]/.test(s) && /[A-Z]/.test(s) && /[0-9/+]/.test(s);
const documented = (s: string) => /EXAMPLE/i.test(s);

/** AWS key ids in `text`, documented examples left out. */
export function awsKeyIds(text: string): string[] {
  return [...text.matchAll(AWS_KEY_ID)].map((m) => m[0]).filter((id) => !documented(id));
}

/** Strings in `text` shaped like the secret that pairs with a key id. */
export function awsSecretCandidates(text: string): string[] {
  return [...text.matchAll(AWS_SECRET)].map((m) => m[0]).filter((s) => mixed(s) && !documented(s));
}

/** A key id and its secret, each found in any of the texts (one argument holds the id, another the halves of the secret). */
export const AWS_PAIR: SecretFinding = {
  id: "aws-access-key-pair",
  kind: "an AWS access key with its secret",
};

/** What AWS_SECRET_LABELLED's label holds, case aside: without it, the expression is not run. */
const AWS_LABEL = /secret_?access/i;
/** The prefixes of AWS_KEY_ID. */
const AWS_ID_PREFIXES = ["AKIA", "ASIA", "ABIA", "ACCA"];

function awsFindings(text: string): SecretFinding[] {
  const out: SecretFinding[] = [];
  if (AWS_LABEL.test(text))
    for (const m of text.matchAll(AWS_SECRET_LABELLED)) {
      const secret = m[1] ?? "";
      if (mixed(secret) && !documented(secret)) {
        out.push({ id: "aws-secret-key", kind: "an AWS secret access key" });
        return out;
      }
    }
  // An access key id alone opens nothing; with a secret beside it, it is a working credential.
  if (
    AWS_ID_PREFIXES.some((p) => text.includes(p)) &&
    awsKeyIds(text).length > 0 &&
    awsSecretCandidates(text).length > 0
  )
    out.push(AWS_PAIR);
  return out;
}

const PEM =
  /-----BEGIN ((?:RSA |EC |DSA |OPENSSH |ENCRYPTED |PGP )?PRIVATE KEY(?: BLOCK)?)-----([\s\S]{0,20000}?)-----END \1-----/g;

/** The base64 body of an armored block: header lines (`Proc-Type:`) and the PGP checksum left out. */
function pemBody(body: string): Buffer | undefined {
  const lines = body
    .replace(/\\[rn]/g, "\n")
    .split(/[\r\n]+/)
    .map((l) => l.trim())
    .filter((l) => l !== "" && !/^[A-Za-z-]+:/.test(l) && !/^=[A-Za-z0-9+/]{4}$/.test(l));
  const b64 = lines.join("").replace(/\s+/g, "");
  if (b64.length < 64 || !/^[A-Za-z0-9+/]+={0,2}$/.test(b64)) return undefined;
  return Buffer.from(b64, "base64");
}

/** OpenSSL's old password protection: the body after these headers is ciphertext, not DER. */
const LEGACY_ENCRYPTED = /Proc-Type:[ \t]*4,[ \t]*ENCRYPTED/i;

/**
 * A private key block whose body decodes to what that kind of key is: DER (a SEQUENCE, 0x30),
 * OpenSSH's `openssh-key-v1` magic, an OpenPGP packet (high bit set), or, under a
 * `Proc-Type: 4,ENCRYPTED` header, ciphertext of a key's length. A fixture with `MIIE...fake` or
 * `<key>` in it is not one.
 */
function privateKeys(text: string): SecretFinding[] {
  for (const m of text.matchAll(PEM)) {
    const label = m[1] ?? "";
    const body = m[2] ?? "";
    const der = pemBody(body);
    if (der === undefined || der.length < 48) continue;
    const ok = LEGACY_ENCRYPTED.test(body)
      ? /^(?:RSA|EC|DSA) /.test(label)
      : label.startsWith("OPENSSH")
        ? der.subarray(0, 15).toString("latin1") === "openssh-key-v1\0"
        : label.startsWith("PGP")
          ? ((der[0] ?? 0) & 0x80) !== 0
          : der[0] === 0x30;
    if (ok)
      return [
        { id: "private-key", kind: `a private key (${label.replace(/ ?PRIVATE KEY.*/, "") || "PKCS#8"})` },
      ];
  }
  return [];
}

const JWT = /\beyJ[A-Za-z0-9_-]{8,}\.eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{16,}/g;
/** jwt.io's example token: every tutorial and test suite has it. */
const JWT_IO_EXAMPLE_SIGNATURE = "SflKxwRJSMeKKF2QT4fwpMeJf36POk6yJV_adQssw5c";

function jsonObject(part: string): Record<string, unknown> | undefined {
  try {
    const v: unknown = JSON.parse(Buffer.from(part, "base64url").toString("utf8"));
    return v !== null && typeof v === "object" && !Array.isArray(v)
      ? (v as Record<string, unknown>)
      : undefined;
  } catch {
    return undefined;
  }
}

/** A signed JWT: a header that is JSON naming a signing algorithm, a payload that is a JSON object. */
function jwts(text: string): SecretFinding[] {
  for (const m of text.matchAll(JWT)) {
    const [h = "", p = "", sig = ""] = m[0].split(".");
    if (sig.startsWith(JWT_IO_EXAMPLE_SIGNATURE)) continue;
    const header = jsonObject(h);
    const alg = header?.["alg"];
    if (typeof alg !== "string" || alg.toLowerCase() === "none") continue;
    if (jsonObject(p) === undefined) continue;
    return [{ id: "jwt", kind: "a signed JWT (a bearer token)" }];
  }
  return [];
}

/**
 * The list's words by length and first four letters (5 bits a letter), so that a word of the
 * text is looked up from its characters: slicing and lower-casing every word of a 4 MiB text
 * made this the costliest check of an outgoing call.
 */
const BY_PREFIX = new Map<number, string[]>();

/** `length` ASCII letters from `from`: the key of their length and first four, folded to lower case. */
function prefixKey(text: string, from: number, length: number): number {
  let key = length;
  for (let j = 0; j < 4 && j < length; j++) key = key * 32 + ((text.charCodeAt(from + j) | 0x20) - 0x60);
  return key;
}

for (const w of wordlist) {
  const key = prefixKey(w, 0, w.length);
  BY_PREFIX.set(key, [...(BY_PREFIX.get(key) ?? []), w]);
}

/** The list's word spelled by the `length` ASCII letters from `from`, in any case; else undefined. */
function listWord(text: string, from: number, length: number): string | undefined {
  for (const w of BY_PREFIX.get(prefixKey(text, from, length)) ?? []) {
    let j = 4;
    while (j < length && w.charCodeAt(j) === (text.charCodeAt(from + j) | 0x20)) j++;
    if (j >= length) return w;
  }
  return undefined;
}

const SEED_LENGTHS = [24, 21, 18, 15, 12];

/**
 * A BIP-39 seed phrase: 12 to 24 words of the English list in a row whose checksum holds. The
 * test vectors of the standard repeat words (`abandon … about`); a real phrase almost never
 * repeats more than one.
 */
function seedPhrases(text: string): SecretFinding[] {
  // One pass over the characters, cutting words out without copying the text: this runs on
  // every string a call sends, and most are prose with runs of two or three list words.
  let run: string[] = [];
  let from = -1;
  const check = (): boolean => {
    for (let start = 0; start + 12 <= run.length; start++) {
      for (const n of SEED_LENGTHS) {
        const phrase = run.slice(start, start + n);
        if (phrase.length !== n || new Set(phrase).size < n - 1) continue;
        if (validateMnemonic(phrase.join(" "), wordlist)) return true;
      }
    }
    return false;
  };
  for (let i = 0; i <= text.length; i++) {
    const c = i < text.length ? text.charCodeAt(i) | 0x20 : 0; // ASCII letters folded to lower case
    if (c >= 0x61 && c <= 0x7a) {
      if (from < 0) from = i;
      continue;
    }
    if (from < 0) continue;
    const length = i - from;
    const word = length >= 3 && length <= 8 ? listWord(text, from, length) : undefined;
    from = -1;
    if (word !== undefined) {
      run.push(word);
      continue;
    }
    if (run.length >= 12 && check()) return [{ id: "seed-phrase", kind: "a wallet seed phrase (BIP-39)" }];
    run = [];
  }
  if (run.length >= 12 && check()) return [{ id: "seed-phrase", kind: "a wallet seed phrase (BIP-39)" }];
  return [];
}

/** Prefixes providers reserved for secret keys, with the length their keys have. */
const PREFIXED: ReadonlyArray<{ id: string; kind: string; re: RegExp; needs: string }> = [
  {
    id: "gitlab-token",
    kind: "a GitLab access token",
    re: /\bglpat-[A-Za-z0-9_-]{20,}(?![A-Za-z0-9_-])/,
    needs: "glpat-",
  },
  {
    id: "slack-token",
    kind: "a Slack token",
    re: /\bxox[abposr]-[0-9]{8,13}-[0-9]{8,13}(?:-[0-9]{8,13})?-[A-Za-z0-9]{24,34}\b/,
    needs: "xox",
  },
  {
    id: "stripe-key",
    kind: "a Stripe live secret key",
    re: /\b[sr]k_live_[A-Za-z0-9]{24,}\b/,
    needs: "k_live_",
  },
  {
    id: "google-api-key",
    kind: "a Google API key",
    re: /\bAIza[0-9A-Za-z_-]{35}(?![0-9A-Za-z_-])/,
    needs: "AIza",
  },
  {
    id: "openai-key",
    kind: "an OpenAI API key",
    re: /\bsk-(?:(?:proj|svcacct|admin)-[A-Za-z0-9_-]{40,}|[A-Za-z0-9]{20}T3BlbkFJ[A-Za-z0-9]{20})(?![A-Za-z0-9_-])/,
    needs: "sk-",
  },
  {
    id: "anthropic-key",
    kind: "an Anthropic API key",
    re: /\bsk-ant-(?:api|admin)\d{2}-[A-Za-z0-9_-]{80,}/,
    needs: "sk-ant-",
  },
  { id: "github-token", kind: "a GitHub fine-grained token", re: GITHUB_PAT, needs: "github_pat_" },
];

/** The prefixes of GITHUB_TOKEN. */
const GITHUB_PREFIXES = ["ghp_", "gho_", "ghu_", "ghs_", "ghr_"];

function checksummed(text: string): SecretFinding[] {
  if (GITHUB_PREFIXES.some((p) => text.includes(p)))
    for (const m of text.matchAll(GITHUB_TOKEN))
      if (validChecksumToken(m[1] ?? "")) return [{ id: "github-token", kind: "a GitHub token" }];
  if (text.includes("npm_"))
    for (const m of text.matchAll(NPM_TOKEN))
      if (validChecksumToken(m[1] ?? "")) return [{ id: "npm-token", kind: "an npm access token" }];
  return [];
}

/**
 * The kinds of credential `text` holds (each kind once), in a fixed order. Each format's
 * expression runs only on text holding a literal every match of it holds (`includes` is many
 * times faster than an expression that starts with `\b`): one marker for all of them let
 * source code, which says `secret` somewhere, pay for every expression.
 */
export function findSecrets(text: string): SecretFinding[] {
  const out: SecretFinding[] = [];
  if (text.includes("PRIVATE KEY")) out.push(...privateKeys(text));
  out.push(...awsFindings(text), ...checksummed(text));
  if (text.includes("eyJ")) out.push(...jwts(text));
  for (const p of PREFIXED)
    if (text.includes(p.needs) && p.re.test(text)) out.push({ id: p.id, kind: p.kind });
  out.push(...seedPhrases(text));
  const seen = new Set<string>();
  return out.filter((f) => !seen.has(f.id) && seen.add(f.id));
}
