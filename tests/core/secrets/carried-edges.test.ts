// Where carriedSecrets stops reading, and how it names a pair whose halves were written differently.
import { describe, expect, it } from "vitest";
import { carriedSecrets } from "../../../src/core/secrets/carried.js";
import { awsPair, checksumToken } from "../../helpers/secrets.js";

const b64 = (s: string) => Buffer.from(s).toString("base64");
const found = (args: Record<string, unknown>) =>
  carriedSecrets(args).found.map((f) => `${f.id} ${f.at} ${f.via}`);

describe("carriedSecrets: edges", () => {
  const token = checksumToken("ghp_");

  it("reads strings 64 levels deep, not 65", () => {
    let at64: unknown = token;
    for (let i = 0; i < 64; i++) at64 = [at64];
    expect(found({ a: at64 })).toEqual(["github-token arguments.a plain"]);
    expect(found({ a: [at64] })).toEqual([]);
  });

  it("null and numbers hold no strings", () => {
    expect(found({ a: null, b: 5, c: token })).toEqual(["github-token arguments.c plain"]);
  });

  it("one string is not also read as the arguments joined", () => {
    let deep = token;
    for (let i = 0; i < 5; i++) deep = b64(`x ${deep} y`);
    expect(carriedSecrets({ body: deep }).capped).toBe(
      "too many encoded layers to read for secrets in arguments.body",
    );
  });

  it("a pair names the argument both halves share, and the encoding that hid a half", () => {
    const { id, secret } = awsPair();
    expect(found({ creds: `${id} ${b64(secret)}` })).toEqual(["aws-access-key-pair arguments.creds base64"]);
    expect(found({ a: b64(`key ${id}`), b: `secret ${secret}` })).toEqual([
      "aws-access-key-pair arguments (split across them) base64",
    ]);
  });
});
