// `verify` and `watch` with a baseline path that is a folder or a file they may not read
// (hunt report tools.md D2): a configuration error, exit 78, one `file: key: expected X, got Y`
// line, never a stack trace or exit 70.
import { spawnSync } from "node:child_process";
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readdirSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";

const CLI = join(import.meta.dirname, "..", "..", "..", "dist", "main.js");
const ROOT_USER = process.getuid?.() === 0;

function box() {
  const root = mkdtempSync(join(tmpdir(), "eg-baseline-"));
  chmodSync(root, 0o755);
  const home = join(root, "home");
  mkdirSync(home, { mode: 0o777 });
  chmodSync(home, 0o777);
  const env: NodeJS.ProcessEnv = { ...process.env, HOME: home, EFFECTGATE_HOME: join(home, "eg") };
  delete env.EFFECTGATE_OFF;
  return { root, env };
}

function cli(args: string[], env: NodeJS.ProcessEnv, asOther = false) {
  const r = spawnSync(process.execPath, [CLI, ...args], {
    env,
    encoding: "utf8",
    timeout: 20_000,
    ...(asOther && ROOT_USER ? { uid: 65534, gid: 65534 } : {}),
  });
  return { code: r.status, out: r.stdout, err: r.stderr };
}

beforeAll(() => {
  expect(existsSync(CLI), `${CLI} is missing: build first`).toBe(true);
});

describe("a baseline that cannot be read", () => {
  it("a folder given as the baseline: verify, watch and verify --write exit 78 naming it", () => {
    const { root, env } = box();
    const dir = join(root, "dir");
    mkdirSync(dir);
    for (const cmd of ["verify", "watch"]) {
      const r = cli([cmd, "--baseline", dir], env);
      expect(r.code, r.err).toBe(78);
      expect(r.err).toBe(
        `effectgate: ${dir}: baseline: expected a readable file written by \`effectgate verify --write\`, got a folder (EISDIR)\n`,
      );
    }
    const w = cli(["verify", "--write", "--baseline", dir], env);
    expect(w.code, w.err).toBe(78);
    expect(w.err).toBe(
      `effectgate: ${dir}: baseline: expected a file path to write the baseline to, got a folder (EISDIR)\n`,
    );
    expect(readdirSync(root).sort()).toEqual(["dir", "home"]); // no temporary file left beside it
  });

  it("a baseline it may not read: verify and watch exit 78 naming it", () => {
    const { root, env } = box();
    const base = join(root, "base.json");
    writeFileSync(base, "{}\n");
    chmodSync(base, ROOT_USER ? 0o600 : 0o000);
    for (const cmd of ["verify", "watch"]) {
      const r = cli([cmd, "--baseline", base], env, true);
      expect(r.code, r.err).toBe(78);
      expect(r.err).toBe(
        `effectgate: ${base}: baseline: expected a readable file written by \`effectgate verify --write\`, got no permission to read it (EACCES)\n`,
      );
    }
  });
});
