import { createHash } from "node:crypto";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { describe, expect, it } from "vitest";
import { ConfigError } from "../../src/core/errors.js";
import { DEFAULT_POLICY_PATH } from "../../src/config/default-policy.js";
import { readPolicy } from "../../src/config/policy-file.js";
import { LINUX, useTempHome } from "../helpers/policy.js";

const home = useTempHome();
const sha = (b: Uint8Array | string) => createHash("sha256").update(b).digest("hex");

function configLines(fn: () => unknown): string[] {
  try {
    fn();
  } catch (err) {
    expect(err).toBeInstanceOf(ConfigError);
    return (err as ConfigError).message.split("\n");
  }
  throw new Error("expected a ConfigError");
}

describe("readPolicy", () => {
  it("finds the shipped default beside the package's source and dist folders", () => {
    expect(DEFAULT_POLICY_PATH).toBe(resolve(import.meta.dirname, "..", "..", "policy", "default.yaml"));
  });

  it("loads the default for no --policy and for --policy default, hashing its bytes", () => {
    const a = readPolicy(undefined, LINUX);
    const b = readPolicy("default", LINUX);
    expect(a.source).toBe("default");
    expect(b.source).toBe("default");
    expect(a.sha256).toBe(sha(readFileSync(DEFAULT_POLICY_PATH)));
    expect(b.sha256).toBe(a.sha256);
  });

  it("loads a file, naming it as the source and hashing its exact bytes", () => {
    const file = join(home.dir(), "team.yaml");
    const text = "\uFEFFversion: 1\r\nmode: enforce\r\npaths:\r\n  deny: ['~/.ssh/**']\r\n";
    writeFileSync(file, text);
    const p = readPolicy(file, LINUX);
    expect(p.source).toBe(file);
    expect(p.mode).toBe("enforce");
    expect(p.sha256).toBe(sha(Buffer.from(text, "utf8")));
    expect(p.matchPath("deny", "/home/ada/.ssh/config")).toBe("~/.ssh/**");
  });

  it("reports problems against the file's own name and lines", () => {
    const file = join(home.dir(), "typo.yaml");
    writeFileSync(file, "version: 1\nmode: enforce\ntaint:\n  sources: ['*fetch*']\n  excludes: []\n");
    expect(configLines(() => readPolicy(file, LINUX))).toEqual([
      `${file}:5: taint.excludes: expected one of sources, servers, exclude, signatures (did you mean exclude?), got an unknown key`,
    ]);
  });

  it("refuses a missing file, a folder, non-UTF-8 bytes and an empty spec, naming what was wrong", () => {
    const missing = join(home.dir(), "nope.yaml");
    expect(configLines(() => readPolicy(missing, LINUX))).toEqual([
      `${missing}: --policy: expected a readable policy file, got no such file (ENOENT)`,
    ]);
    const folder = join(home.dir(), "folder");
    mkdirSync(folder);
    expect(configLines(() => readPolicy(folder, LINUX))).toEqual([
      `${folder}: --policy: expected a readable policy file, got a directory (EISDIR)`,
    ]);
    const latin1 = join(home.dir(), "latin1.yaml");
    writeFileSync(latin1, Buffer.from([0x76, 0x65, 0x72, 0x3a, 0x20, 0xe9, 0x0a]));
    expect(configLines(() => readPolicy(latin1, LINUX))).toEqual([
      `${latin1}: --policy: expected a UTF-8 text file, got bytes that are not UTF-8`,
    ]);
    expect(configLines(() => readPolicy("", LINUX))).toEqual([
      "(command line): --policy: expected default or a policy file path, got an empty value",
    ]);
  });
});
