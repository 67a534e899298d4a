// The exact shapes of each credential format: what a finding says, the lengths each format
// allows and the near misses one character off, key block bodies (headers, checksums, escaped
// and indented lines, elisions), and the seed-phrase runs. Every credential is made up here.
import { randomBytes } from "node:crypto";
import { crc32 } from "node:zlib";
import { validateMnemonic } from "@scure/bip39";
import { wordlist } from "@scure/bip39/wordlists/english.js";
import { describe, expect, it } from "vitest";
import { awsKeyIds, findSecrets, validChecksumToken } from "../../../src/core/secrets/formats.js";
import {
  awsPair,
  checksumToken,
  jwt,
  opensshKey,
  pem,
  randomText,
  seedPhrase,
} from "../../helpers/secrets.js";

const ids = (text: string) => findSecrets(text).map((f) => f.id);
const ALNUM = "abcXYZ019";
const URLSAFE = "abcXYZ019_-";
const DIGITS = "0123456789";

const UPPER_FIRST = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";
const LOWER_FIRST = "0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ";

function base62(n: number, alphabet: string): string {
  let s = "";
  let rest = n;
  do {
    s = `${alphabet[rest % 62]}${s}`;
    rest = Math.floor(rest / 62);
  } while (rest > 0);
  return s.padStart(6, "0");
}

/** A token whose 30-character body has a checksum written in `alphabet`, its CRC picked by `fits`. */
function tokenWith(prefix: string, alphabet: string, fits: (crc: number) => boolean): string {
  for (;;) {
    const body = randomText(UPPER_FIRST, 30);
    const crc = crc32(Buffer.from(body));
    if (fits(crc)) return `${prefix}${body}${base62(crc, alphabet)}`;
  }
}

describe("checksummed tokens", () => {
  it("the checksum in either base62 order, and padded with zeros when the CRC is small", () => {
    // A CRC of 62^5 or more takes six digits in either order; these differ between the orders.
    const lower = tokenWith("ghp_", LOWER_FIRST, (c) => base62(c, LOWER_FIRST) !== base62(c, UPPER_FIRST));
    expect(validChecksumToken(lower)).toBe(true);
    expect(findSecrets(`token ${lower}`)).toEqual([{ id: "github-token", kind: "a GitHub token" }]);
    // A CRC under 62^5 has five base62 digits: the sum is written with a leading zero.
    const small = tokenWith("npm_", UPPER_FIRST, (c) => c < 62 ** 5);
    expect(small.slice(-6, -5)).toBe("0");
    expect(validChecksumToken(small)).toBe(true);
    expect(validChecksumToken(`${small.slice(0, -6)}${small.slice(-5)}`)).toBe(false);
    expect(findSecrets(`//registry.npmjs.org/:_authToken=${small}`)).toEqual([
      { id: "npm-token", kind: "an npm access token" },
    ]);
  });

  it("each kind once: a GitHub token and a fine-grained one together are one finding", () => {
    const pat = `github_pat_${randomText(ALNUM, 22)}_${randomText(ALNUM, 59)}`;
    expect(findSecrets(pat)).toEqual([{ id: "github-token", kind: "a GitHub fine-grained token" }]);
    expect(findSecrets(`${checksumToken("ghp_")} ${pat}`)).toEqual([
      { id: "github-token", kind: "a GitHub token" },
    ]);
    expect(ids(`github_pat_${randomText(ALNUM, 22)}_${randomText(ALNUM, 58)}`)).toEqual([]);
    expect(ids(`github_pat_${randomText(ALNUM, 22)}_${randomText(ALNUM, 60)}`)).toEqual([]);
  });
});

describe("AWS keys", () => {
  it("say which finding they are", () => {
    const { id, secret } = awsPair();
    expect(findSecrets(`${id} ${secret}`)).toEqual([
      { id: "aws-access-key-pair", kind: "an AWS access key with its secret" },
    ]);
    expect(findSecrets(`aws_secret_access_key = ${secret}`)).toEqual([
      { id: "aws-secret-key", kind: "an AWS secret access key" },
    ]);
  });

  it("a secret needs lower case, upper case and a digit or / or +", () => {
    const upperAndDigits = `AB12${randomText("ABCXYZ0189", 36)}`;
    const lettersOnly = `Ab${randomText("abcXYZ", 38)}`;
    for (const s of [upperAndDigits, lettersOnly]) {
      expect(ids(`AWS_SECRET_ACCESS_KEY=${s}`), s).toEqual([]);
      expect(ids(`${awsPair().id} ${s}`), s).toEqual([]);
    }
    expect(ids(`AWS_SECRET_ACCESS_KEY=${lettersOnly.slice(0, 39)}/`)).toEqual(["aws-secret-key"]);
  });

  it("no pair without a key id: a secret alone, beside a bare prefix or AWS's example id", () => {
    const { id, secret } = awsPair();
    expect(ids(secret)).toEqual([]);
    expect(ids(`AKIA ${secret}`)).toEqual([]);
    expect(ids(`${id.slice(0, -1)} ${secret}`)).toEqual([]);
    expect(ids(`AKIAIOSFODNN7EXAMPLE ${secret}`)).toEqual([]);
    expect(awsKeyIds(`AKIAIOSFODNN7EXAMPLE, ${id}; ASIA${id.slice(4)}`)).toEqual([id, `ASIA${id.slice(4)}`]);
  });
});

/** An armored block around `bytes`, base64 in lines of 64, with `headers` above and `after` below it. */
function block(label: string, bytes: Buffer, headers: string[] = [], after: string[] = []): string {
  const lines =
    Buffer.from(bytes)
      .toString("base64")
      .match(/.{1,64}/g) ?? [];
  const head = headers.length > 0 ? [...headers, ""] : [];
  return [`-----BEGIN ${label}-----`, ...head, ...lines, ...after, `-----END ${label}-----`].join("\n");
}
const der = (first: number, n = 120) => Buffer.concat([Buffer.from([first]), randomBytes(n - 1)]);
const LEGACY_HEADERS = ["Proc-Type: 4,ENCRYPTED", "DEK-Info: AES-128-CBC,0123456789ABCDEF0123456789ABCDEF"];
const kinds = (text: string) => findSecrets(text).map((f) => f.kind);

describe("private key blocks", () => {
  it("name the key's kind, PKCS#8 when the label names none", () => {
    expect(kinds(pem("pkcs8"))).toEqual(["a private key (PKCS#8)"]);
    expect(kinds(pem("ec"))).toEqual(["a private key (EC)"]);
    expect(kinds(pem("encrypted"))).toEqual(["a private key (ENCRYPTED)"]);
    expect(kinds(opensshKey())).toEqual(["a private key (OPENSSH)"]);
  });

  it("a PGP block is an OpenPGP packet (high bit set), its armor headers and checksum left out", () => {
    const pgp = (first: number) =>
      block("PGP PRIVATE KEY BLOCK", der(first), ["Version: GnuPG v2", "Comment: made up"], ["=AbCd"]);
    expect(kinds(pgp(0xc5))).toEqual(["a private key (PGP)"]);
    expect(kinds(pgp(0x95))).toEqual(["a private key (PGP)"]);
    expect(ids(pgp(0x30))).toEqual([]);
    expect(ids(pgp(0x05))).toEqual([]);
  });

  it("header lines are left out, also escaped, indented, or with the base64 in groups", () => {
    const legacy = block("RSA PRIVATE KEY", der(0x30), LEGACY_HEADERS);
    expect(kinds(legacy)).toEqual(["a private key (RSA)"]);
    expect(ids(`{"key": "${legacy.replace(/\n/g, "\\n")}"}`)).toEqual(["private-key"]);
    expect(ids(`key: |\n${legacy.replace(/^/gm, "    ")}\n`)).toEqual(["private-key"]);
    const grouped = legacy.replace(/^([A-Za-z0-9+/]{8})([A-Za-z0-9+/]{8})/gm, "$1 $2\t");
    expect(grouped).not.toBe(legacy);
    expect(ids(grouped)).toEqual(["private-key"]);
  });

  it("a line is a header only when it starts with the header's name, a checksum only when whole", () => {
    const body = der(0x30);
    expect(ids(block("RSA PRIVATE KEY", body))).toEqual(["private-key"]);
    expect(ids(block("RSA PRIVATE KEY", body, ["# Note: fake"]))).toEqual([]);
    expect(ids(block("RSA PRIVATE KEY", body, [], ["QUJD=AbCd"]))).toEqual([]);
    expect(ids(block("RSA PRIVATE KEY", body, [], ["=AbCde"]))).toEqual([]);
  });

  it("a body elided with dots is a fixture, however long", () => {
    const b64 = der(0x30).toString("base64");
    for (const body of [`...\n${b64}`, `${b64}\n...fake...`, `${b64.slice(0, 80)}...${b64.slice(80)}`])
      expect(ids(`-----BEGIN RSA PRIVATE KEY-----\n${body}\n-----END RSA PRIVATE KEY-----`), body).toEqual(
        [],
      );
  });

  it("a body under 48 bytes is no key, even when its base64 is 64 characters", () => {
    const short = der(0x30, 46);
    expect(short.toString("base64")).toHaveLength(64);
    expect(ids(block("RSA PRIVATE KEY", short))).toEqual([]);
    expect(ids(block("RSA PRIVATE KEY", der(0x30, 47)))).toEqual([]);
    expect(ids(block("RSA PRIVATE KEY", der(0x30, 48)))).toEqual(["private-key"]);
  });
});

describe("JWTs", () => {
  const enc = (s: string) => Buffer.from(s).toString("base64url");
  const sig = randomText(URLSAFE, 43);

  it("say they are bearer tokens", () => {
    expect(findSecrets(jwt())).toEqual([{ id: "jwt", kind: "a signed JWT (a bearer token)" }]);
  });

  it("the payload must be JSON", () => {
    const head = enc('{"alg":"HS256","typ":"JWT"}');
    expect(ids(`${head}.${enc('{"sub":"u-42"}')}.${sig}`)).toEqual(["jwt"]);
    expect(ids(`${head}.${enc('{"sub":"u-42"')}.${sig}`)).toEqual([]);
    expect(ids(`${head}.eyJub3QganNvbg.${sig}`)).toEqual([]);
  });

  it("jwt.io's example with characters glued after its signature is still the example", () => {
    const example =
      "eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiIxMjM0NTY3ODkwIiwibmFtZSI6IkpvaG4gRG9lIiwiaWF0IjoxNTE2MjM5MDIyfQ.SflKxwRJSMeKKF2QT4fwpMeJf36POk6yJV_adQssw5c";
    expect(ids(`${example}_old`)).toEqual([]);
  });
});

describe("provider keys: the lengths each format has, and one character off", () => {
  const cases: Array<[string, string, string[], string[]]> = [
    [
      "gitlab-token",
      "a GitLab access token",
      [`glpat-${randomText(URLSAFE, 20)}`, `glpat-${randomText(URLSAFE, 26)}`],
      [`glpat-${randomText(URLSAFE, 19)}`, `xglpat-${randomText(URLSAFE, 20)}`],
    ],
    [
      "slack-token",
      "a Slack token",
      [
        `xoxb-${randomText(DIGITS, 8)}-${randomText(DIGITS, 13)}-${randomText(ALNUM, 24)}`,
        `xoxp-${randomText(DIGITS, 12)}-${randomText(DIGITS, 12)}-${randomText(DIGITS, 13)}-${randomText(ALNUM, 32)}`,
        `xoxa-${randomText(DIGITS, 10)}-${randomText(DIGITS, 10)}-${randomText(ALNUM, 34)}`,
      ],
      [
        `xoxb-${randomText(DIGITS, 7)}-${randomText(DIGITS, 13)}-${randomText(ALNUM, 24)}`,
        `xoxb-${randomText(DIGITS, 10)}-${randomText(DIGITS, 14)}-${randomText(ALNUM, 24)}`,
        `xoxb-${randomText(DIGITS, 10)}-${randomText(DIGITS, 10)}-${randomText(ALNUM, 23)}`,
        `xoxb-${randomText(DIGITS, 10)}-${randomText(DIGITS, 10)}-${randomText(ALNUM, 35)}`,
        `xoxz-${randomText(DIGITS, 10)}-${randomText(DIGITS, 10)}-${randomText(ALNUM, 24)}`,
        `axoxb-${randomText(DIGITS, 10)}-${randomText(DIGITS, 10)}-${randomText(ALNUM, 24)}`,
      ],
    ],
    [
      "stripe-key",
      "a Stripe live secret key",
      [`rk_live_${randomText(ALNUM, 24)}`, `sk_live_${randomText(ALNUM, 99)}`],
      [`sk_live_${randomText(ALNUM, 23)}`, `pk_live_${randomText(ALNUM, 24)}`],
    ],
    [
      "google-api-key",
      "a Google API key",
      [`AIza${randomText(URLSAFE, 35)}`],
      [`AIza${randomText(URLSAFE, 34)}`, `AIza${randomText(URLSAFE, 36)}`, `xAIza${randomText(URLSAFE, 35)}`],
    ],
    [
      "openai-key",
      "an OpenAI API key",
      [
        `sk-proj-${randomText(URLSAFE, 40)}`,
        `sk-svcacct-${randomText(URLSAFE, 40)}`,
        `sk-admin-${randomText(URLSAFE, 90)}`,
        `sk-${randomText(ALNUM, 20)}T3BlbkFJ${randomText(ALNUM, 20)}`,
      ],
      [
        `sk-proj-${randomText(URLSAFE, 39)}`,
        `sk-user-${randomText(URLSAFE, 40)}`,
        `xsk-proj-${randomText(URLSAFE, 40)}`,
        `sk-${randomText(ALNUM, 19)}T3BlbkFJ${randomText(ALNUM, 20)}`,
        `sk-${randomText(ALNUM, 20)}T3BlbkFJ${randomText(ALNUM, 19)}`,
        `sk-${randomText(ALNUM, 20)}T3BlbkFJ${randomText(ALNUM, 21)}`,
        `sk-${randomText(ALNUM, 20)}T3BlbkFJ${randomText(ALNUM, 20)}_x`,
        `sk-${randomText(ALNUM, 10)}_${randomText(ALNUM, 9)}T3BlbkFJ${randomText(ALNUM, 20)}`,
      ],
    ],
    [
      "anthropic-key",
      "an Anthropic API key",
      [`sk-ant-api03-${randomText(URLSAFE, 80)}`, `sk-ant-admin01-${randomText(URLSAFE, 80)}`],
      [
        `sk-ant-api03-${randomText(URLSAFE, 79)}`,
        `sk-ant-api3-${randomText(URLSAFE, 80)}`,
        `sk-ant-apiXY-${randomText(URLSAFE, 80)}`,
        `sk-ant-user03-${randomText(URLSAFE, 80)}`,
      ],
    ],
  ];
  for (const [id, kind, found, missed] of cases)
    it(id, () => {
      for (const t of found) expect(findSecrets(`key=${t} ok`), t).toEqual([{ id, kind }]);
      for (const t of missed) expect(ids(`key=${t} ok`), t).toEqual([]);
    });
});

/** The 12th word that completes `first11` to a valid phrase, none of the 11 repeated by it. */
function completed(first11: string[]): string {
  const last = wordlist.find(
    (w) => !first11.includes(w) && validateMnemonic([...first11, w].join(" "), wordlist),
  );
  if (last === undefined) throw new Error("no last word");
  return [...first11, last].join(" ");
}
const SEED = { id: "seed-phrase", kind: "a wallet seed phrase (BIP-39)" };

describe("seed phrases", () => {
  it("say what they are, ended by prose or by the end of the text", () => {
    const phrase = seedPhrase(12);
    expect(findSecrets(`${phrase} is mine`)).toEqual([SEED]);
    expect(findSecrets(`mine: ${phrase}`)).toEqual([SEED]);
  });

  it("twelve words inside a longer run of list words", () => {
    const phrase = seedPhrase(12);
    expect(ids(`zoo ${phrase}`)).toEqual(["seed-phrase"]);
    expect(ids(`zoo zoo ${phrase} zoo`)).toEqual(["seed-phrase"]);
  });

  it("one word repeated once is a phrase; a list word cut by a character is not a word", () => {
    const words = [
      "tiger",
      "orbit",
      "velvet",
      "castle",
      "tiger",
      "honey",
      "random",
      "lunar",
      "paddle",
      "oxygen",
      "wisdom",
    ];
    const phrase = completed(words);
    expect(ids(phrase)).toEqual(["seed-phrase"]);
    expect(ids(phrase.replace("castle", "cas-tle"))).toEqual([]);
  });

  it("a three-letter word followed by a comma or a line break", () => {
    const words = [
      "act",
      "orbit",
      "velvet",
      "castle",
      "air",
      "honey",
      "random",
      "lunar",
      "arm",
      "oxygen",
      "wisdom",
    ];
    const phrase = completed(words);
    expect(ids(phrase.split(" ").join(",\n"))).toEqual(["seed-phrase"]);
    expect(ids(phrase.split(" ").join("\n"))).toEqual(["seed-phrase"]);
    expect(ids(phrase.split(" ").join(","))).toEqual(["seed-phrase"]);
  });
});

describe("a key under OpenSSL's old password protection", () => {
  it("is found though its body is ciphertext", async () => {
    const { generateKeyPairSync } = await import("node:crypto");
    // The first byte of ciphertext is 0x30 once in 256 keys: eight keys make a lucky pass unlikely.
    for (let i = 0; i < 8; i++) {
      const { privateKey } = generateKeyPairSync("rsa", {
        modulusLength: 1024,
        publicKeyEncoding: { type: "pkcs1", format: "pem" },
        privateKeyEncoding: { type: "pkcs1", format: "pem", cipher: "aes-128-cbc", passphrase: "made-up" },
      });
      expect(privateKey).toContain("Proc-Type: 4,ENCRYPTED");
      expect(findSecrets(privateKey)).toEqual([{ id: "private-key", kind: "a private key (RSA)" }]);
    }
  });

  it("is found however the header is spaced", async () => {
    const { generateKeyPairSync } = await import("node:crypto");
    const { privateKey } = generateKeyPairSync("rsa", {
      modulusLength: 1024,
      publicKeyEncoding: { type: "pkcs1", format: "pem" },
      privateKeyEncoding: { type: "pkcs1", format: "pem", cipher: "aes-128-cbc", passphrase: "made-up" },
    });
    for (const header of ["Proc-Type:4,ENCRYPTED", "Proc-Type:  4,\tENCRYPTED"]) {
      const key = privateKey.replace("Proc-Type: 4,ENCRYPTED", header);
      expect(key).toContain(header);
      // One key in 256 would pass the DER check anyway: the header must be what finds the rest.
      if (
        (Buffer.from(key.split("\n\n")[1]?.replace(/-----END[\s\S]*/, "") ?? "", "base64")[0] ?? 0) === 0x30
      )
        continue;
      expect(findSecrets(key)).toEqual([{ id: "private-key", kind: "a private key (RSA)" }]);
    }
  });

  it("is not claimed for a block that only says so", () => {
    const fake = `-----BEGIN PRIVATE KEY-----\nProc-Type: 4,ENCRYPTED\n${"A".repeat(80)}\n-----END PRIVATE KEY-----`;
    expect(findSecrets(fake)).toEqual([]);
  });
});
