// The edges of the secret readers: which file lines count as assignments, which tokens look
// secret, which names are env files, and where the decoder's bounds stop it.
import { describe, expect, it } from "vitest";
import { decodedViews } from "../../../src/core/secrets/decode.js";
import {
  createSecretFiles,
  fileTokens,
  isEnvFile,
  secretToken,
} from "../../../src/core/secrets/fingerprints.js";

const b64 = (s: string) => Buffer.from(s).toString("base64");

describe("fingerprints: assignments, tokens and env file names", () => {
  it("an assignment is a whole line: its value alone counts", () => {
    expect(fileTokens("  KEY=Abcdefgh12345")).toEqual(["Abcdefgh12345"]);
    expect(fileTokens("export KEY=Abcdefgh12345")).toEqual(["Abcdefgh12345"]);
    expect(fileTokens("export  KEY=Abcdefgh12345")).toEqual(["Abcdefgh12345"]);
    expect(fileTokens("KEY =Abcdefgh12345")).toEqual(["Abcdefgh12345"]);
    // Not an assignment: the line starts with words, so every token of it counts.
    expect(fileTokens("password Abcdefgh12345 K=Zyxwvut98765")).toEqual([
      "K=Zyxwvut98765",
      "Abcdefgh12345",
      "Zyxwvut98765",
    ]);
  });

  it("a secret token has two classes of lower, upper and digit, six distinct characters, and is no path", () => {
    expect(secretToken("ABCDEFGHIJKLM")).toBe(false);
    expect(secretToken("abcAB1abcAB1")).toBe(true);
    expect(secretToken("abcAB1abcABa")).toBe(true);
    expect(secretToken("abcAB1abcAB1".replace("c", "a").replace("c", "a"))).toBe(false);
    expect(secretToken("Abcdefg12345/x")).toBe(true);
    expect(secretToken("~/Abcdefg12345x")).toBe(false);
  });

  it("env file names are matched whole", () => {
    for (const p of ["/p/my.env.local", "/p/prod.envx", "/p/x.envrc", "/p/.envrcx"])
      expect(isEnvFile(p), p).toBe(false);
    expect(isEnvFile("/p/.env.example.local")).toBe(true);
  });

  it("the first file to hold a token keeps it, and any token of the text may be the one", () => {
    const files = createSecretFiles();
    files.remember("/a", "Abcdefgh12345\n");
    files.remember("/b", "Abcdefgh12345\n");
    expect(files.size).toBe(1);
    expect(files.carried("Qwertyuiop123 Abcdefgh12345")).toBe("/a");
  });

  it("remembers at most 100 000 tokens", () => {
    const files = createSecretFiles();
    const lines = Array.from({ length: 100_005 }, (_, i) => `Tok${i.toString(36)}xYzAbCdEf`);
    files.remember("/big", lines.join("\n"));
    expect(files.size).toBe(100_000);
  });
});

describe("decodedViews: readings and bounds", () => {
  const vias = (text: string) => decodedViews(text).views.map((v) => v.via);

  it("percent escapes are decoded as runs, a malformed run kept as written", () => {
    expect(decodedViews("caf%C3%A9").views.map((v) => v.text)).toEqual(["caf%C3%A9", "café"]);
    expect(vias("x%C3y")).toEqual(["plain"]);
  });

  it("every invisible character goes in one reading", () => {
    expect(decodedViews("ab\u200bcd\u200bef").views).toEqual([
      { via: "plain", text: "ab\u200bcd\u200bef" },
      { via: "invisible", text: "abcdef" },
    ]);
  });

  it("hex: an even number of digits from 32, and only when the bytes are text", () => {
    expect(vias("41".repeat(16))).toEqual(["plain", "hex"]);
    expect(vias(`${"41".repeat(16)}4`)).toEqual(["plain"]);
    expect(vias("00".repeat(16))).toEqual(["plain"]);
  });

  it("hex runs at either end of the text and between words; 31 digits are no run", () => {
    const hi = "48692074686572652c2066726f6d20686578"; // "Hi there, from hex"
    for (const text of [hi, `see ${hi}.`, `${hi} and ${"41".repeat(16)}`])
      expect(
        decodedViews(text)
          .views.filter((v) => v.via === "hex")
          .map((v) => v.text)[0],
        text,
      ).toBe("Hi there, from hex");
    expect(vias(`x ${"a".repeat(31)} y`)).toEqual(["plain"]);
  });

  it("a run of 8 MiB of hex digits is read, not thrown on (a regular expression overflowed its stack)", () => {
    const out = decodedViews(`x ${"ab".repeat(4 * 1024 * 1024)} y`);
    expect(out.views[0]?.via).toBe("plain");
  });

  it("the same reading twice is one view", () => {
    const b = b64("plain words that hide nothing at all");
    expect(vias(`${b} ${b}`)).toEqual(["plain", "base64"]);
  });

  it("three rounds deep at most, then capped", () => {
    let text = "the innermost words of all";
    for (let i = 0; i < 4; i++) text = b64(text);
    const { views, capped } = decodedViews(text);
    expect(views.map((v) => v.via)).toEqual(["plain", "base64", "base64>base64", "base64>base64>base64"]);
    expect(capped).toBe(true);
  });

  it("at most 256 views", () => {
    const text = Array.from({ length: 300 }, (_, i) => b64(`plain words number ${i} here`)).join(" ");
    const { views, capped } = decodedViews(text);
    expect(views).toHaveLength(256);
    expect(capped).toBe(true);
  });

  it("at most 4 MiB decoded in all", () => {
    const mib = 1024 * 1024;
    const exact = decodedViews(b64(`${"ab ".repeat(1_398_101)}c`));
    expect(exact.views.map((v) => v.via)).toEqual(["plain", "base64"]);
    const two = decodedViews(`${b64("x ".repeat(1.5 * mib))} ${b64("y ".repeat(1.5 * mib))}`);
    expect(two.views.map((v) => v.via)).toEqual(["plain", "base64"]);
    expect(two.capped).toBe(true);
  });
});
