// A YAML block list whose first item is itself a hyphenated word (`- -y`).
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { type Mode, planFile } from "../../src/clients/plan.js";
import { clientByName } from "../../src/clients/registry/index.js";
import type { ConfigFile } from "../../src/clients/types.js";
import { cli, freshMachine } from "./helpers.js";

describe("Continue YAML with a block list whose first item starts with a hyphen", () => {
  const spec = clientByName("continue");
  if (!spec) throw new Error("no continue");
  const file: ConfigFile = { client: "continue", path: "c.yaml", scope: "user", format: "yaml" };
  const install: Mode = { kind: "install", launcher: { words: ["/n/node", "/e/main.js"] }, flags: {} };
  it("wraps it and uninstall gives the bytes back", () => {
    const text = "mcpServers:\n  - name: a\n    command: npx\n    args:\n      - -y\n      - pkg\n";
    const plan = planFile(spec, file, text, install, ["/e/main.js"]);
    expect(plan.error).toBeUndefined();
    expect(plan.newText).toBe(
      'mcpServers:\n  - name: a\n    command: "/n/node"\n    args:\n      - "/e/main.js"\n      - "--name"\n      - "a"\n      - "--"\n      - npx\n      - -y\n      - pkg\n',
    );
    expect(planFile(spec, file, plan.newText ?? "", { kind: "uninstall" }, ["/e/main.js"]).newText).toBe(
      text,
    );
  });

  it("works through the built CLI too", () => {
    const m = freshMachine(false);
    mkdirSync(join(m.home, ".continue"), { recursive: true });
    const path = join(m.home, ".continue", "config.yaml");
    const text = "mcpServers:\n  - name: a\n    command: npx\n    args:\n      - -y\n      - pkg\n";
    writeFileSync(path, text);
    const r = cli(m, ["install", "--client", "continue"]);
    expect(r.status, r.stdout).toBe(0);
    expect(readFileSync(path, "utf8")).toContain("      - -y\n");
    expect(cli(m, ["uninstall", "--client", "continue"]).status).toBe(0);
    expect(readFileSync(path, "utf8")).toBe(text);
  });
});
