// Install memos through the built CLI: an explicit `"args": []` survives install + uninstall,
// the memo file is owner-only, holds no values, and is emptied by the uninstall that used it.
import { mkdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { cli, freshMachine } from "./helpers.js";

describe("install memos (built CLI)", () => {
  it("brings an explicit empty args list back, and forgets the memo afterwards", () => {
    const m = freshMachine(false);
    const path = join(m.root, "home", ".cursor", "mcp.json");
    const original =
      '{\n  "mcpServers": {\n    "e": {\n      "command": "my-tool",\n      "args": [],\n      "env": {"SECRET_TOKEN": "s3cr3t-value"}\n    }\n  }\n}\n';
    mkdirSync(join(m.root, "home", ".cursor"), { recursive: true });
    writeFileSync(path, original);
    expect(cli(m, ["install", "--client", "cursor"]).status).toBe(0);
    const memoFile = join(m.egHome, "install-memos.json");
    expect(statSync(memoFile).mode & 0o777).toBe(0o600);
    const memo = readFileSync(memoFile, "utf8");
    expect(memo).toContain(JSON.stringify(path));
    expect(memo).not.toContain("s3cr3t");
    expect(memo).not.toContain("my-tool");
    expect(readFileSync(path, "utf8")).not.toContain('"args": []');
    const undo = cli(m, ["uninstall", "--client", "cursor"]);
    expect(undo.status, undo.stdout).toBe(0);
    expect(readFileSync(path, "utf8")).toBe(original);
    expect(JSON.parse(readFileSync(memoFile, "utf8"))).toEqual({ version: 1, memos: [] });
  });
});
