/**
 * A machine client's key (private_key_jwt): the algorithm follows from the key, any PEM form
 * comes out as the PKCS#8 the SDK imports, and a key that is not fit says what was expected
 * without repeating the key.
 */
import { generateKeyPairSync } from "node:crypto";
import { chmodSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { loadClientKey } from "../../../../src/relay/remote/auth/client-key.js";

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

const ec = (namedCurve: string): string =>
  generateKeyPairSync("ec", { namedCurve }).privateKey.export({ format: "pem", type: "sec1" }).toString();

describe("loadClientKey", () => {
  it("derives the algorithm from the key and hands the SDK PKCS#8", () => {
    const rsa = generateKeyPairSync("rsa", { modulusLength: 2048 })
      .privateKey.export({ format: "pem", type: "pkcs1" })
      .toString();
    const got = [rsa, ec("P-256"), ec("P-384"), ec("P-521")].map((pem) =>
      loadClientKey({ envVar: "K" }, { K: pem }),
    );
    expect(got.map((k) => k.alg)).toEqual(["RS256", "ES256", "ES384", "ES512"]);
    for (const k of got) expect(k.pkcs8).toMatch(/^-----BEGIN PRIVATE KEY-----\n/);
  });

  it("refuses keys it cannot sign with, and text that is no key, naming what it expected", () => {
    const ed = generateKeyPairSync("ed25519").privateKey.export({ format: "pem", type: "pkcs8" }).toString();
    expect(() => loadClientKey({ envVar: "K" }, { K: ed })).toThrow(
      "--oauth-client-key-env: expected an RSA key or an EC key on P-256, P-384 or P-521, got an ed25519 key",
    );
    expect(() => loadClientKey({ envVar: "K" }, { K: ec("secp256k1") })).toThrow(
      "got an EC key on secp256k1",
    );
    expect(() => loadClientKey({ envVar: "K" }, { K: "not-a-key-SECRETISH" })).toThrow(
      /expected a PEM private key .*got text that is not one$/,
    );
    expect(() => loadClientKey({ envVar: "K" }, { K: "not-a-key-SECRETISH" })).not.toThrow(/SECRETISH/);
    expect(() => loadClientKey({ envVar: "K" }, {})).toThrow(
      "--oauth-client-key-env: expected the environment variable K to hold the client's PEM private key, got nothing",
    );
  });

  it("reads a key file only when it is the user's alone", () => {
    const dir = mkdtempSync(join(tmpdir(), "effectgate-key-"));
    dirs.push(dir);
    const file = join(dir, "k.pem");
    writeFileSync(file, ec("P-256"));
    chmodSync(file, 0o400);
    expect(loadClientKey({ file }, {}, "linux").alg).toBe("ES256");
    chmodSync(file, 0o640);
    expect(() => loadClientKey({ file }, {}, "linux")).toThrow("got mode 0640: run chmod 600");
    expect(() => loadClientKey({ file: join(dir, "absent.pem") }, {}, "linux")).toThrow(
      /--oauth-client-key-file: expected a readable key file, got .*absent\.pem" \(ENOENT\)/,
    );
    expect(() => loadClientKey({ file: dir }, {}, "linux")).toThrow("expected a file");
  });
});
