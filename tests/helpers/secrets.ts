// Credentials in real formats, made fresh by each test run: nothing that works is committed.
// GitHub and npm tokens get a valid checksum, keys are real keys of a throwaway pair.
import { generateKeyPairSync, randomBytes, createHmac } from "node:crypto";
import { crc32 } from "node:zlib";
import { generateMnemonic } from "@scure/bip39";
import { wordlist } from "@scure/bip39/wordlists/english.js";

const B62 = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";
const B32 = "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567";
const B64 = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

function random(alphabet: string, n: number): string {
  return Array.from(randomBytes(n), (b) => alphabet[b % alphabet.length]).join("");
}

function base62(n: number): string {
  let s = "";
  let rest = n;
  do {
    s = B62[rest % 62] + s;
    rest = Math.floor(rest / 62);
  } while (rest > 0);
  return s.padStart(6, "0");
}

/** A token of GitHub's (or npm's) format with a valid checksum. */
export function checksumToken(prefix: string): string {
  const body = random(B62, 30);
  return `${prefix}${body}${base62(crc32(Buffer.from(body)))}`;
}

/** The same with its last character changed: the checksum no longer holds. */
export function badChecksumToken(prefix: string): string {
  const t = checksumToken(prefix);
  const last = t.slice(-1);
  return `${t.slice(0, -1)}${last === "A" ? "B" : "A"}`;
}

/** An AWS access key id and a secret key of the shapes AWS issues. */
export function awsPair(): { id: string; secret: string } {
  let secret = random(B64, 40);
  // Make sure it has both cases and a digit, as issued keys practically always do.
  secret = `Ab1${secret.slice(3)}`;
  return { id: `AKIA${random(B32, 16)}`, secret };
}

export function pem(kind: "rsa-pkcs1" | "pkcs8" | "ec" | "encrypted"): string {
  if (kind === "rsa-pkcs1")
    return generateKeyPairSync("rsa", { modulusLength: 1024 }).privateKey.export({
      type: "pkcs1",
      format: "pem",
    }) as string;
  if (kind === "ec")
    return generateKeyPairSync("ec", { namedCurve: "P-256" }).privateKey.export({
      type: "sec1",
      format: "pem",
    }) as string;
  const key = generateKeyPairSync("ed25519").privateKey;
  if (kind === "encrypted")
    return key.export({ type: "pkcs8", format: "pem", cipher: "aes-256-cbc", passphrase: "pw" }) as string;
  return key.export({ type: "pkcs8", format: "pem" }) as string;
}

/** An OpenSSH private key block: the format's magic and random key material. */
export function opensshKey(): string {
  const body = Buffer.concat([Buffer.from("openssh-key-v1\0", "latin1"), randomBytes(300)]).toString(
    "base64",
  );
  const lines = body.match(/.{1,70}/g) ?? [];
  return `-----BEGIN OPENSSH PRIVATE KEY-----\n${lines.join("\n")}\n-----END OPENSSH PRIVATE KEY-----\n`;
}

/** An HS256 JWT signed with a random key. */
export function jwt(payload: Record<string, unknown> = { sub: "u-42", iat: 1_700_000_000 }): string {
  const enc = (o: unknown) => Buffer.from(JSON.stringify(o)).toString("base64url");
  const head = `${enc({ alg: "HS256", typ: "JWT" })}.${enc(payload)}`;
  const sig = createHmac("sha256", randomBytes(32)).update(head).digest("base64url");
  return `${head}.${sig}`;
}

export function seedPhrase(words: 12 | 24 = 12): string {
  return generateMnemonic(wordlist, words === 12 ? 128 : 256);
}

export const randomText = (alphabet: string, n: number) => random(alphabet, n);
