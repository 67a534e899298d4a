// The secret-format spec: every format found when real, and the near misses that must not be.
import { randomBytes, randomUUID, createHash } from "node:crypto";
import fc from "fast-check";
import { validateMnemonic } from "@scure/bip39";
import { wordlist } from "@scure/bip39/wordlists/english.js";
import { describe, expect, it } from "vitest";
import { findSecrets, validChecksumToken } from "../../../src/core/secrets/formats.js";
import {
  awsPair,
  badChecksumToken,
  checksumToken,
  jwt,
  opensshKey,
  pem,
  randomText,
  seedPhrase,
} from "../../helpers/secrets.js";

const ids = (text: string) => findSecrets(text).map((f) => f.id);

describe("found: high-confidence formats, validated", () => {
  it("private key blocks of every armor, also with escaped line breaks", () => {
    for (const kind of ["rsa-pkcs1", "pkcs8", "ec", "encrypted"] as const) {
      const key = pem(kind);
      expect(ids(`here it is:\n${key}`), kind).toEqual(["private-key"]);
      // As it sits in a JSON credentials file or an environment variable.
      expect(ids(`PRIVATE_KEY="${key.replace(/\n/g, "\\n")}"`), kind).toEqual(["private-key"]);
    }
    expect(ids(opensshKey())).toEqual(["private-key"]);
    expect(findSecrets(pem("rsa-pkcs1"))[0]?.kind).toBe("a private key (RSA)");
  });

  it("an AWS access key id with its secret beside it, and a secret named as one", () => {
    const { id, secret } = awsPair();
    expect(ids(`[default]\naws_access_key_id = ${id}\naws_secret_access_key = ${secret}\n`)).toEqual([
      "aws-secret-key",
    ]);
    expect(ids(`${id} ${secret}`)).toEqual(["aws-access-key-pair"]);
    expect(ids(`https://x.example/?id=${id}&s=${secret}`)).toEqual(["aws-access-key-pair"]);
    expect(ids(`AWS_SECRET_ACCESS_KEY=${secret}`)).toEqual(["aws-secret-key"]);
    expect(ids(`{"SecretAccessKey": "${secret}"}`)).toEqual(["aws-secret-key"]);
  });

  it("GitHub and npm tokens whose checksum holds", () => {
    for (const prefix of ["ghp_", "gho_", "ghu_", "ghs_", "ghr_"]) {
      const t = checksumToken(prefix);
      expect(validChecksumToken(t)).toBe(true);
      expect(ids(`token: ${t}`), prefix).toEqual(["github-token"]);
    }
    expect(ids(`//registry.npmjs.org/:_authToken=${checksumToken("npm_")}`)).toEqual(["npm-token"]);
    expect(ids(`github_pat_${randomText("abcXYZ019", 22)}_${randomText("abcXYZ019", 59)}`)).toEqual([
      "github-token",
    ]);
  });

  it("a signed JWT with a JSON header naming its algorithm", () => {
    expect(ids(`Authorization: Bearer ${jwt()}`)).toEqual(["jwt"]);
  });

  it("a BIP-39 seed phrase of 12 or 24 words, in any case and spacing", () => {
    expect(ids(`my wallet: ${seedPhrase(12)}`)).toEqual(["seed-phrase"]);
    expect(ids(seedPhrase(24).toUpperCase().split(" ").join(",\n"))).toEqual(["seed-phrase"]);
  });

  it("a seed phrase's words only as the list spells them, whatever their case", () => {
    const words = seedPhrase(12).split(" ");
    const mixed = words.map((w, i) => [...w].map((c, j) => ((i + j) % 2 ? c.toUpperCase() : c)).join(""));
    expect(ids(mixed.join(" "))).toEqual(["seed-phrase"]);
    // Words are looked up by their first four letters: a word that shares them (or is one
    // letter short of a list word) is not the list's word, and the run of twelve is broken.
    for (const i of [0, 5, 11]) {
      const w = words[i] ?? "";
      for (const other of [
        `${w}z`,
        `${w.slice(0, 4)}${"q".repeat(Math.max(0, w.length - 4))}`,
        w.slice(0, -1),
      ]) {
        if (wordlist.includes(other) || other === w) continue;
        const changed = words.map((x, j) => (j === i ? other : x));
        expect(ids(changed.join(" ")), changed.join(" ")).toEqual([]);
      }
    }
  });

  it("provider keys with reserved prefixes", () => {
    const cases: Array<[string, string]> = [
      [`glpat-${randomText("abcXYZ019_-", 20)}`, "gitlab-token"],
      [`xoxb-1234567890-1234567890123-${randomText("abcXYZ019", 24)}`, "slack-token"],
      [`sk_live_${randomText("abcXYZ019", 24)}`, "stripe-key"],
      [`AIza${randomText("abcXYZ019_-", 35)}`, "google-api-key"],
      [`sk-proj-${randomText("abcXYZ019_-", 64)}`, "openai-key"],
      [`sk-ant-api03-${randomText("abcXYZ019_-", 93)}AA`, "anthropic-key"],
    ];
    for (const [text, id] of cases) expect(ids(`key=${text}`), id).toEqual([id]);
  });

  it("says the kind, never the value", () => {
    const t = checksumToken("ghp_");
    for (const f of findSecrets(`a ${t} b`)) expect(JSON.stringify(f)).not.toContain(t.slice(4, 20));
  });
});

describe("near misses: not credentials", () => {
  it("AWS's documented example keys", () => {
    const docs =
      "aws_access_key_id = AKIAIOSFODNN7EXAMPLE\naws_secret_access_key = wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY";
    expect(ids(docs)).toEqual([]);
    expect(ids("AWS_SECRET_ACCESS_KEY=wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY")).toEqual([]);
  });

  it("an access key id alone, or beside a git SHA or a hex digest", () => {
    const { id } = awsPair();
    expect(ids(id)).toEqual([]);
    expect(ids(`${id} commit 3f786850e387550fdab836ed7e6dc881de23001b`)).toEqual([]);
    expect(ids(`${id} ${createHash("sha1").update("x").digest("hex")}`)).toEqual([]);
  });

  it("GitHub tokens whose checksum fails, and GitHub's documented example", () => {
    for (const prefix of ["ghp_", "gho_", "npm_"]) expect(ids(badChecksumToken(prefix)), prefix).toEqual([]);
    expect(ids("gho_16C7e42F292c6912E7710c838347Ae178B4a")).toEqual([]);
    expect(ids("ghp_EXAMPLETOKEN1234567890ABCDEFGHIJKLmnop")).toEqual([]);
  });

  it("test-fixture key blocks that hold no key, public keys and certificates", () => {
    const fixtures = [
      "-----BEGIN RSA PRIVATE KEY-----\nMIIEpAIBAAKCAQEA...fake...\n-----END RSA PRIVATE KEY-----",
      "-----BEGIN PRIVATE KEY-----\n<your key here>\n-----END PRIVATE KEY-----",
      "-----BEGIN OPENSSH PRIVATE KEY-----\nAAAAB3NzaC1yc2EAAAADAQABAAABAQC7aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa\n-----END OPENSSH PRIVATE KEY-----",
      `-----BEGIN PRIVATE KEY-----\n${Buffer.alloc(64, 7).toString("base64")}\n-----END PRIVATE KEY-----`,
      "-----BEGIN PUBLIC KEY-----\nMCowBQYDK2VwAyEAGb9ECWmEzf6FQbrBZ9w7lshQhqowtrbLDFw4rXAxZuE=\n-----END PUBLIC KEY-----",
      "-----BEGIN RSA PRIVATE KEY-----\n(missing end)",
    ];
    for (const f of fixtures) expect(ids(f), f.slice(0, 40)).toEqual([]);
  });

  it("jwt.io's example, unsigned tokens and look-alikes", () => {
    const example =
      "eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiIxMjM0NTY3ODkwIiwibmFtZSI6IkpvaG4gRG9lIiwiaWF0IjoxNTE2MjM5MDIyfQ.SflKxwRJSMeKKF2QT4fwpMeJf36POk6yJV_adQssw5c";
    expect(ids(example)).toEqual([]);
    const none = (s: string) => Buffer.from(s).toString("base64url");
    expect(ids(`${none('{"alg":"none"}')}.${none('{"sub":"x"}')}.${"a".repeat(20)}`)).toEqual([]);
    expect(ids(`eyJub3QganNvbg.eyJub3QganNvbg.${"a".repeat(20)}`)).toEqual([]);
  });

  it("BIP-39 test vectors, phrases whose checksum fails, and prose", () => {
    expect(ids(`${"abandon ".repeat(11)}about`)).toEqual([]);
    expect(ids("legal winner thank year wave sausage worth useful legal winner thank yellow")).toEqual([]);
    const words = seedPhrase(12).split(" ");
    // Change the last word until the checksum fails.
    const broken = wordlist
      .map((w) => [...words.slice(0, 11), w].join(" "))
      .find((p) => !validateMnemonic(p, wordlist));
    expect(ids(broken ?? "")).toEqual([]);
    expect(ids("We will review the budget and report back to the team about the project next week")).toEqual(
      [],
    );
  });

  it("UUIDs, digests, integrity hashes, Stripe test keys, short prefixes", () => {
    const texts = [
      randomUUID(),
      createHash("sha256").update("a").digest("hex"),
      `sha512-${createHash("sha512").update("a").digest("base64")}`,
      `sk_test_${randomText("abcXYZ019", 24)}`,
      `AIza${randomText("abcXYZ019", 20)}`,
      "xoxb-not-a-token",
    ];
    for (const t of texts) expect(ids(t), t).toEqual([]);
  });

  it("base64, hex and UUIDs of random bytes are never credentials", () => {
    fc.assert(
      fc.property(fc.uint8Array({ minLength: 16, maxLength: 400 }), (bytes) => {
        const b = Buffer.from(bytes);
        expect(ids(`${b.toString("base64")} ${b.toString("hex")} ${b.toString("base64url")}`)).toEqual([]);
      }),
      { numRuns: 500 },
    );
    expect(ids(Array.from({ length: 50 }, () => randomUUID()).join("\n"))).toEqual([]);
    expect(ids(randomBytes(4096).toString("base64"))).toEqual([]);
  });
});
