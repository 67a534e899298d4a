import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { type Mode, planFile } from "../../src/clients/plan.js";
import { clientByName } from "../../src/clients/registry/index.js";
import type { ConfigFile, Format } from "../../src/clients/types.js";
import { FIXTURES } from "./helpers.js";

const LAUNCHER = { words: ["/opt/node/bin/node", "/opt/effectgate/dist/main.js"] };
const MAINS = ["/opt/effectgate/dist/main.js"];
const INSTALL: Mode = { kind: "install", launcher: LAUNCHER, flags: {} };
const UNINSTALL: Mode = { kind: "uninstall" };

// fixture → client, format, and the command values install must replace
const CASES: [string, string, Format, string[]][] = [
  ["home/.config/Claude/claude_desktop_config.json", "claude-desktop", "json", ["npx", "uvx"]],
  ["home/.claude.json", "claude-code", "json", ["docker", "npx"]],
  ["project/.mcp.json", "claude-code", "json", ["node", "cmd"]],
  ["home/.cursor/mcp.json", "cursor", "json", ["uvx", "my-server", "my-tool"]],
  ["project/.cursor/mcp.json", "cursor", "json", ["npx"]],
  ["home/.config/Code/User/mcp.json", "vscode", "jsonc", ["uvx"]],
  ["project/.vscode/mcp.json", "vscode", "jsonc", ["npx"]],
  ["home/.codeium/windsurf/mcp_config.json", "windsurf", "json", ["uvx"]],
  ["home/.codex/config.toml", "codex", "toml", ["npx", "uvx"]],
  ["project/.codex/config.toml", "codex", "toml", ["python3", "tool-mcp"]],
  ["home/.gemini/settings.json", "gemini", "jsonc", ["python"]],
  ["home/.config/zed/settings.json", "zed", "jsonc", ["npx"]],
  [
    "home/.config/Code/User/globalStorage/saoudrizwan.claude-dev/settings/cline_mcp_settings.json",
    "cline",
    "json",
    ["node"],
  ],
  ["home/.config/opencode/opencode.jsonc", "opencode", "jsonc", []],
  ["project/opencode.json", "opencode", "jsonc", []],
  ["home/.continue/config.yaml", "continue", "yaml", ["npx", "solo-server"]],
  ["project/.continue/mcpServers/db.yaml", "continue", "yaml", ["uvx"]],
  ["project/.continue/mcpServers/tools.json", "continue", "json", ["uvx"]],
  ["project/.agents/mcp.json", "opencode", "json", []],
];

function load(rel: string, client: string, format: Format) {
  const spec = clientByName(client);
  if (!spec) throw new Error(`no client ${client}`);
  const file: ConfigFile = {
    client,
    path: rel,
    scope: rel.startsWith("project/") ? "project" : "user",
    format,
  };
  return { spec, file, text: readFileSync(join(FIXTURES, rel), "utf8") };
}

/** Is `small` a subsequence of `big` (lines in order, gaps allowed)? */
function isSubsequence(small: string[], big: string[]): boolean {
  let j = 0;
  for (const line of small) {
    while (j < big.length && big[j] !== line) j++;
    if (j === big.length) return false;
    j++;
  }
  return true;
}

describe.each(CASES)("%s", (rel, client, format, commands) => {
  const { spec, file, text } = load(rel, client, format);
  const installed = planFile(spec, file, text, INSTALL, MAINS);

  it("wraps every stdio server and skips remote ones as UNGUARDED", () => {
    expect(installed.error).toBeUndefined();
    expect(installed.newText).toBeDefined();
    for (const a of installed.actions) {
      if (a.action === "wrap") {
        // Named after its own key (the label, e.g. Claude Code's `projects/<dir>/`, left out).
        expect(a.after?.slice(0, 3)).toEqual([...LAUNCHER.words, "--name"]);
        expect(a.name.endsWith(a.after?.[3] ?? "?")).toBe(true);
        expect(a.after?.slice(4, 5)).toEqual(["--"]);
        expect(a.after?.slice(5)).toEqual(a.before);
      } else {
        expect(a.unguarded).toBe(true);
        expect(a.reason).toContain("UNGUARDED");
      }
    }
  });

  it("leaves every line that does not spell a command or args as it was", () => {
    // Only the command and args values of wrapped servers change; every other line survives, in order.
    const untouched = text.split("\n").filter((l) => !/\b(command|args)\b/.test(l));
    expect(isSubsequence(untouched, (installed.newText ?? "").split("\n"))).toBe(true);
    // A remote or untouched server's declaration text is still there verbatim.
    for (const c of commands)
      expect(installed.newText).not.toMatch(new RegExp(`command"?\\s*[:=]\\s*["']?${c}["']?\\s*[,\\n\\r#]`));
  });

  it("keeps BOM and line endings", () => {
    const out = installed.newText ?? "";
    expect(out.startsWith("\uFEFF")).toBe(text.startsWith("\uFEFF"));
    if (text.includes("\r\n")) expect(out.replace(/\r\n/g, "").includes("\n")).toBe(false);
    else expect(out.includes("\r")).toBe(false);
    expect(out.endsWith("\n")).toBe(text.endsWith("\n"));
  });

  it("is idempotent: a second install changes nothing", () => {
    const again = planFile(spec, file, installed.newText ?? "", INSTALL, MAINS);
    expect(again.newText).toBeUndefined();
    expect(again.actions.filter((a) => a.action !== "skip")).toEqual([]);
    expect(again.actions.some((a) => a.reason === "already wrapped by effectgate")).toBe(true);
  });

  it("uninstall gives back the original bytes (with the memos install left)", () => {
    const restored = planFile(spec, file, installed.newText ?? "", UNINSTALL, MAINS, installed.memos);
    expect(restored.error).toBeUndefined();
    expect(restored.newText).toBe(text);
  });
});

describe("wrapping details", () => {
  it("bakes --policy and --level in only when given", () => {
    const { spec, file, text } = load("project/.mcp.json", "claude-code", "json");
    const plan = planFile(
      spec,
      file,
      text,
      { ...INSTALL, flags: { level: "enforce", policy: "/etc/p.yaml" } },
      MAINS,
    );
    const wrap = plan.actions.find((a) => a.name === "fs");
    expect(wrap?.after).toEqual([
      ...LAUNCHER.words,
      "--policy",
      "/etc/p.yaml",
      "--level",
      "enforce",
      "--name",
      "fs",
      "--",
      "node",
      "server.js",
    ]);
    expect(plan.newText).toContain('"cwd": "/srv/app"');
    const back = planFile(spec, file, plan.newText ?? "", UNINSTALL, MAINS);
    expect(back.newText).toBe(text);
  });

  it("moves a whole cmd /c command line after --", () => {
    const { spec, file, text } = load("project/.mcp.json", "claude-code", "json");
    const wrap = planFile(spec, file, text, INSTALL, MAINS).actions.find((a) => a.name === "win-style");
    expect(wrap?.after?.slice(5)).toEqual([
      "cmd",
      "/c",
      "npx",
      "-y",
      "@modelcontextprotocol/server-everything",
    ]);
  });

  it("never duplicates a Codex table", () => {
    const { spec, file, text } = load("home/.codex/config.toml", "codex", "toml");
    const out = planFile(spec, file, text, INSTALL, MAINS).newText ?? "";
    expect(out.match(/^\[mcp_servers\.docs\]/gm)).toHaveLength(1);
    expect(out.match(/^\[mcp_servers\.docs\.env\]/gm)).toHaveLength(1);
    expect(out).toContain('command = "/opt/node/bin/node"   # launched by npx');
  });

  it("leaves a file that does not parse alone and says so", () => {
    const { spec, file, text } = load("home/.cursor/mcp.json", "cursor", "json");
    const plan = planFile(spec, file, text.slice(0, 60), INSTALL, MAINS);
    expect(plan.newText).toBeUndefined();
    expect(plan.error).toMatch(/does not parse/);
  });

  it("refuses to guess at an entry wrapped without --", () => {
    const spec = clientByName("cursor");
    if (!spec) throw new Error("no cursor");
    const text = JSON.stringify({
      mcpServers: { x: { command: "/usr/local/bin/effectgate", args: ["npx", "srv"] } },
    });
    const file: ConfigFile = { client: "cursor", path: "x", scope: "user", format: "json" };
    const plan = planFile(spec, file, text, UNINSTALL, MAINS);
    expect(plan.newText).toBeUndefined();
    expect(plan.actions[0]?.reason).toMatch(/without a -- separator/);
  });
});

describe("an explicit empty args list (install memos)", () => {
  const cases: [string, string, Format, string][] = [
    ["home/.cursor/mcp.json", "cursor", "json", '"args": []'],
    ["project/.codex/config.toml", "codex", "toml", "args = []"],
  ];
  it.each(cases)("%s: kept with the memo, dropped without it", (rel, client, format, empty) => {
    const { spec, file, text } = load(rel, client, format);
    const installed = planFile(spec, file, text, INSTALL, MAINS);
    expect(installed.memos).toHaveLength(1);
    const wrapped = installed.newText ?? "";
    expect(wrapped).not.toContain(empty);
    const withMemo = planFile(spec, file, wrapped, UNINSTALL, MAINS, installed.memos);
    expect(withMemo.newText).toBe(text);
    expect(withMemo.memos).toEqual(installed.memos); // used, so the session drops them
    // Without the memo the wrapped text looks like an added list: it goes, and only that line differs.
    const without = planFile(spec, file, wrapped, UNINSTALL, MAINS).newText ?? "";
    expect(without).not.toContain(empty);
    expect(without.replace(/\r/g, "").split("\n").length).toBe(
      text.replace(/\r/g, "").split("\n").length - 1,
    );
  });

  it("works the same for Continue's YAML", () => {
    const spec = clientByName("continue");
    if (!spec) throw new Error("no continue");
    const file: ConfigFile = { client: "continue", path: "c.yaml", scope: "user", format: "yaml" };
    const text = "mcpServers:\n  - name: a # keep\n    command: tool\n    args: []\n    env: {}\n";
    const installed = planFile(spec, file, text, INSTALL, MAINS);
    expect(installed.memos).toHaveLength(1);
    const back = planFile(spec, file, installed.newText ?? "", UNINSTALL, MAINS, installed.memos);
    expect(back.newText).toBe(text);
  });

  it("applies a memo only while the declaration is exactly what install wrote", () => {
    const { spec, file, text } = load("home/.cursor/mcp.json", "cursor", "json");
    const installed = planFile(spec, file, text, INSTALL, MAINS);
    // The user edited the wrapped command (here: the original program) after install.
    const edited = (installed.newText ?? "").replace('"--", "my-tool"', '"--", "my-tool2"');
    const back = planFile(spec, file, edited, UNINSTALL, MAINS, installed.memos).newText ?? "";
    expect(back).toContain('"command": "my-tool2"\n');
    expect(back).not.toContain('"args": []');
  });

  it("records no memo when the empty list cannot be mistaken for an added one", () => {
    const spec = clientByName("cursor");
    if (!spec) throw new Error("no cursor");
    const file: ConfigFile = { client: "cursor", path: "x", scope: "user", format: "json" };
    const text = '{"mcpServers": {"a": {"command": "t", "env": {}, "args": [ ]}}}';
    const installed = planFile(spec, file, text, INSTALL, MAINS);
    expect(installed.memos).toEqual([]);
    expect(planFile(spec, file, installed.newText ?? "", UNINSTALL, MAINS).newText).toBe(text);
  });
});

describe("Codex servers written as inline tables or dotted keys", () => {
  const spec = clientByName("codex");
  if (!spec) throw new Error("no codex");
  const file: ConfigFile = { client: "codex", path: "c.toml", scope: "user", format: "toml" };
  const texts: [string, string, Record<string, string>][] = [
    [
      "inline tables in [mcp_servers]",
      '# servers\n[mcp_servers]\nx = { command = "npx", args = ["-y", "pkg"] } # keep\ny = { command = "uvx", env = { A = "1" } }\n',
      {
        x: '"/opt/node/bin/node", args = ["/opt/effectgate/dist/main.js", "--name", "x", "--", "npx", "-y", "pkg"] } # keep',
      },
    ],
    [
      "one root inline table, with an explicit empty args",
      'model = "m"\r\nmcp_servers = { a = { command = "a-mcp", args = [] }, "b c" = { url = "https://r/mcp" } }\r\n',
      {
        a: 'a = { command = "/opt/node/bin/node", args = ["/opt/effectgate/dist/main.js", "--name", "a", "--", "a-mcp"] }',
      },
    ],
    [
      "dotted keys under [mcp_servers]",
      '[mcp_servers]\nz.command = "node" # js\nz.env = { A = "1" }\n"q r".command = \'q\'\n"q r".args = [\n  "--x", # why\n]\n',
      {
        z: 'z.command = "/opt/node/bin/node" # js\nz.args = ["/opt/effectgate/dist/main.js", "--name", "z", "--", "node"]\n',
        "q r":
          '"q r".args = [\n  "/opt/effectgate/dist/main.js",\n  "--name",\n  "q r",\n  "--",\n  \'q\',\n  "--x", # why\n]',
      },
    ],
    [
      "dotted keys at the root",
      'mcp_servers.w.command = "w-mcp"\n\n[other]\nk = 1\n',
      {
        w: 'mcp_servers.w.command = "/opt/node/bin/node"\nmcp_servers.w.args = ["/opt/effectgate/dist/main.js", "--name", "w", "--", "w-mcp"]\n',
      },
    ],
  ];
  it.each(texts)(
    "%s: wraps each server, parses as intended, and uninstall gives the bytes back",
    (_n, text, want) => {
      const installed = planFile(spec, file, text, INSTALL, MAINS);
      expect(installed.error).toBeUndefined();
      const wrapped = installed.newText ?? "";
      for (const snippet of Object.values(want)) expect(wrapped).toContain(snippet);
      const names = installed.actions.filter((a) => a.action === "wrap").map((a) => a.name);
      expect(names.sort()).toEqual(
        Object.keys(want)
          .concat(text.includes("y = {") ? ["y"] : [])
          .sort(),
      );
      expect(planFile(spec, file, wrapped, INSTALL, MAINS).newText).toBeUndefined();
      const back = planFile(spec, file, wrapped, UNINSTALL, MAINS, installed.memos);
      expect(back.newText).toBe(text);
    },
  );

  it("leaves a server alone whose command is a multi-line string, saying why", () => {
    const text = '[mcp_servers.m]\ncommand = """\nnpx"""\n';
    const plan = planFile(spec, file, text, INSTALL, MAINS);
    expect(plan.newText).toBeUndefined();
    expect(plan.actions[0]?.reason).toBe("cannot edit: command: expected a single-line string");
  });
});
