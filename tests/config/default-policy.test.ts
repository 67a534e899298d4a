import { createHash } from "node:crypto";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { DEFAULT_POLICY_PATH, readPrecompiledDefault } from "../../src/config/default-policy.js";
import { loadPolicy, readPolicyDocument } from "../../src/core/policy/load.js";
import type { PathList } from "../../src/core/policy/api.js";
import { PROFILES, useTempHome } from "../helpers/policy.js";

const home = useTempHome();
const sha = (b: Uint8Array | string) => createHash("sha256").update(b).digest("hex");
const yamlText = readFileSync(DEFAULT_POLICY_PATH, "utf8");
const DIST_KEPT = join(import.meta.dirname, "..", "..", "dist", "default-policy.json");

/** A kept document in a temporary folder, for the YAML at `yaml`. */
function keep(name: string, kept: unknown): { yaml: string; kept: string } {
  const file = join(home.dir(), name);
  writeFileSync(file, JSON.stringify(kept));
  return { yaml: DEFAULT_POLICY_PATH, kept: file };
}

const document = readPolicyDocument(yamlText, "default", PROFILES.linux).doc;
const PROBES: [PathList, string][] = [
  ["deny", "/home/u/.ssh/authorized_keys"],
  ["deny", "/home/u/.bashrc"],
  ["deny_read", "/home/u/.aws/credentials"],
  ["confirm", "/home/u/project/.github/workflows/ci.yml"],
  ["deny", "C:\\Users\\u\\.ssh\\id_rsa"],
  ["deny", "/home/u/project/src/app.ts"],
];

describe("the default policy kept at build time", () => {
  it("is the document of policy/default.yaml, for its bytes (npm run build wrote it)", () => {
    const kept = JSON.parse(readFileSync(DIST_KEPT, "utf8"));
    expect(kept.format).toBe(1);
    expect(kept.sha256).toBe(sha(readFileSync(DEFAULT_POLICY_PATH)));
    expect(kept.document).toEqual(document);
  });

  it("judges as the YAML does on every platform", () => {
    const paths = keep("kept.json", { format: 1, sha256: sha(yamlText), document });
    for (const profile of Object.values(PROFILES)) {
      const fast = readPrecompiledDefault(profile, paths);
      const slow = loadPolicy(yamlText, "default", sha(yamlText), profile);
      expect(fast).toBeDefined();
      expect(fast?.source).toBe("default");
      expect(fast?.sha256).toBe(slow.sha256);
      expect(fast?.envDeny).toEqual(slow.envDeny);
      expect(fast?.exec).toEqual(slow.exec);
      expect(fast?.runsLater).toEqual(slow.runsLater);
      expect(fast?.inert).toEqual(slow.inert);
      for (const [list, p] of PROBES) expect(fast?.matchPath(list, p)).toBe(slow.matchPath(list, p));
      expect(fast?.execGlob("run_command")).toBe(slow.execGlob("run_command"));
      expect(fast?.taintSource("fetch")).toBe(slow.taintSource("fetch"));
    }
  });

  it("is not used for other bytes, another format, or when it cannot be read", () => {
    const other = keep("other.json", { format: 1, sha256: sha(`${yamlText}\n`), document });
    expect(readPrecompiledDefault(PROFILES.linux, other)).toBeUndefined();
    const format = keep("format.json", { format: 2, sha256: sha(yamlText), document });
    expect(readPrecompiledDefault(PROFILES.linux, format)).toBeUndefined();
    const empty = keep("empty.json", { format: 1, sha256: sha(yamlText) });
    expect(readPrecompiledDefault(PROFILES.linux, empty)).toBeUndefined();
    const missing = { yaml: DEFAULT_POLICY_PATH, kept: join(home.dir(), "missing.json") };
    expect(readPrecompiledDefault(PROFILES.linux, missing)).toBeUndefined();
  });

  it("is not used when a pattern in it is a problem on this platform: the loader reports it", () => {
    const broken = { ...document, paths: { ...document.paths, deny: ["~/a/**/b/**"] } };
    const paths = keep("broken.json", { format: 1, sha256: sha(yamlText), document: broken });
    expect(() =>
      loadPolicy("version: 1\npaths:\n  deny: ['~/a/**/b/**']\n", "x", "0", PROFILES.linux),
    ).toThrow();
    expect(readPrecompiledDefault(PROFILES.linux, paths)).toBeUndefined();
  });
});
