// Credentials for attack scenarios, made when the scenario is read (docs/replay-and-eval.md).
// A scenario about a leaked GitHub token must carry one whose checksum holds, or the judge
// rightly lets it pass; committing such tokens would set off every secret scanner that reads
// the repository. So a scenario writes `{{secret:github-token}}`, and eval puts in a token made
// from the scenario's id: the same text on every run, valid in format, opening nothing.
import { createHash } from "node:crypto";
import { crc32 } from "node:zlib";
import { entropyToMnemonic } from "@scure/bip39";
import { wordlist } from "@scure/bip39/wordlists/english.js";

const B62 = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";
const B32 = "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567";
const B64 = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

/** `n` bytes that depend only on `seed`. */
function bytes(seed: string, n: number): Buffer {
  const out: Buffer[] = [];
  for (let i = 0; out.length * 32 < n; i++) out.push(createHash("sha256").update(`${seed}#${i}`).digest());
  return Buffer.concat(out).subarray(0, n);
}

const chars = (seed: string, alphabet: string, n: number) =>
  Array.from(bytes(seed, n), (b) => alphabet[b % alphabet.length]).join("");

function checksummed(prefix: string, seed: string): string {
  const body = chars(seed, B62, 30);
  let n = crc32(Buffer.from(body, "ascii"));
  let sum = "";
  do {
    sum = (B62[n % 62] ?? "") + sum;
    n = Math.floor(n / 62);
  } while (n > 0);
  return `${prefix}${body}${sum.padStart(6, "0")}`;
}

const KINDS: Readonly<Record<string, (seed: string) => string>> = {
  "github-token": (s) => checksummed("ghp_", s),
  "npm-token": (s) => checksummed("npm_", s),
  "aws-access-key-id": (s) => `AKIA${chars(s, B32, 16)}`,
  // Issued secrets hold both cases and a digit; these do too, whatever the bytes.
  "aws-secret-key": (s) => `Zq7${chars(s, B64, 37)}`,
  "private-key": (s) => {
    // A DER SEQUENCE of the length an RSA-2048 PKCS#8 key has, filled with the seed's bytes.
    const der = Buffer.concat([Buffer.from([0x30, 0x82, 0x04, 0xbe]), bytes(s, 1218)]);
    const lines = der.toString("base64").match(/.{1,64}/g) ?? [];
    return `-----BEGIN PRIVATE KEY-----\n${lines.join("\n")}\n-----END PRIVATE KEY-----\n`;
  },
  jwt: (s) => {
    const part = (o: unknown) => Buffer.from(JSON.stringify(o)).toString("base64url");
    return `${part({ alg: "HS256", typ: "JWT" })}.${part({ sub: `user-${chars(s, B62, 8)}`, scope: "admin" })}.${bytes(s, 32).toString("base64url")}`;
  },
  "seed-phrase": (s) => entropyToMnemonic(bytes(s, 16), wordlist),
  "slack-token": (s) =>
    `xoxb-${chars(s, "0123456789", 11)}-${chars(`${s}b`, "0123456789", 13)}-${chars(`${s}c`, B62, 24)}`,
};

const ENCODINGS: Readonly<Record<string, (text: string) => string>> = {
  base64: (t) => Buffer.from(t).toString("base64"),
  base64url: (t) => Buffer.from(t).toString("base64url"),
  hex: (t) => Buffer.from(t).toString("hex"),
  percent: (t) => Array.from(Buffer.from(t), (b) => `%${b.toString(16).padStart(2, "0")}`).join(""),
};

export const SECRET_KINDS = Object.keys(KINDS);
const PLACEHOLDER = /\{\{secret:([a-z0-9-]+)((?:\|[a-z0-9:]+)*)\}\}/g;

/**
 * `text` with each `{{secret:KIND}}` replaced by a credential of that kind made from `seed`
 * (the same kind gives the same value in one scenario), then each `|step` applied in order:
 * an encoding (`base64`, `base64url`, `hex`, `percent`) or `slice:A:B` (characters A to B, for
 * a secret split over two arguments). A problem is returned for an unknown kind or step.
 */
export function expandSecrets(
  text: string,
  seed: string,
): { ok: true; text: string } | { ok: false; expected: string; got: string } {
  let problem: { expected: string; got: string } | undefined;
  const out = text.replace(PLACEHOLDER, (whole, kind: string, steps: string) => {
    const make = KINDS[kind];
    if (make === undefined) {
      problem ??= { expected: `a secret kind (${SECRET_KINDS.join(", ")})`, got: JSON.stringify(kind) };
      return whole;
    }
    let value = make(`${seed}/${kind}`);
    for (const step of steps.split("|").filter(Boolean)) {
      const slice = /^slice:(\d+):(\d+)$/.exec(step);
      const encode = ENCODINGS[step];
      if (slice !== null) value = value.slice(Number(slice[1]), Number(slice[2]));
      else if (encode !== undefined) value = encode(value);
      else
        problem ??= {
          expected: `a step (${Object.keys(ENCODINGS).join(", ")}, slice:A:B)`,
          got: JSON.stringify(step),
        };
    }
    return value;
  });
  return problem === undefined ? { ok: true, text: out } : { ok: false, ...problem };
}
