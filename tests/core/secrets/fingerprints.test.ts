import { describe, expect, it } from "vitest";
import {
  createSecretFiles,
  fileTokens,
  isEnvFile,
  secretToken,
} from "../../../src/core/secrets/fingerprints.js";

describe("fingerprints of secret files", () => {
  it("keeps long mixed tokens, and of an assignment only its value", () => {
    expect(fileTokens("API_TOKEN_PRODUCTION2=q8Zx7Vb3Nm5Rt1Yw\nregion = us-east-1\n")).toEqual([
      "q8Zx7Vb3Nm5Rt1Yw",
    ]);
    expect(secretToken("localhost")).toBe(false);
    expect(secretToken("aaaaaaaaaaaa1")).toBe(false); // too few distinct characters
    expect(secretToken("/usr/local/bin/node20")).toBe(false);
    expect(secretToken("q8Zx7Vb3Nm5R")).toBe(true);
  });

  it("reads a token inside a URL path and a base64 value cut at its slashes", () => {
    const files = createSecretFiles();
    files.remember("/k", "secret = wJalrXUtnFEMIzK7MDENGq/bPxRfiCYzzzzLEKEY\n");
    expect(files.carried("https://x.example/bPxRfiCYzzzzLEKEY")).toBe("/k");
    expect(files.carried("wJalrXUtnFEMIzK7MDENGq/bPxRfiCYzzzzLEKEY")).toBe("/k");
    expect(files.carried("nothing of it here")).toBeUndefined();
  });

  it("keeps hashes only: the text is not in the store", () => {
    const files = createSecretFiles();
    files.remember("/k", "token: Zq8x7Vb3Nm5Rt1Yw6Ue4\n");
    expect(JSON.stringify(Object.entries(files))).not.toContain("Zq8x7Vb3");
  });

  it("knows env files by name, examples excepted", () => {
    for (const p of ["/p/.env", "/p/.env.local", "C:\\p\\.env.production", "/p/prod.env", "/p/.envrc"])
      expect(isEnvFile(p), p).toBe(true);
    for (const p of ["/p/.env.example", "/p/.env.sample", "/p/env.ts", "/p/.environment"])
      expect(isEnvFile(p), p).toBe(false);
  });
});
