import { describe, expect, it } from "vitest";
import { CLIENTS, clientByName } from "../../src/clients/registry/index.js";
import type { MachineFacts } from "../../src/clients/types.js";
import { fixtureFiles } from "./helpers.js";

function facts(over: Partial<MachineFacts>, dirs: Record<string, string[]> = {}): MachineFacts {
  return {
    platform: "linux",
    home: "/home/u",
    listDirs: (d) => dirs[d] ?? [],
    listFiles: (d) => dirs[d] ?? [],
    claudeCodeManaged: [],
    sep: "/",
    ...over,
  };
}

const paths = (name: string, f: MachineFacts, project = "/w/p") =>
  clientByName(name)
    ?.files(f, project)
    .map((x) => x.path) ?? [];

describe("client registry", () => {
  it("finds Claude Desktop's classic and MSIX files on Windows", () => {
    const win = facts(
      {
        platform: "win32",
        home: "C:\\Users\\u",
        appData: "C:\\Users\\u\\AppData\\Roaming",
        localAppData: "C:\\Users\\u\\AppData\\Local",
        sep: "\\",
      },
      {
        "C:\\Users\\u\\AppData\\Local\\Packages": [
          "Claude_pzs8sxrjxfjjc",
          "Microsoft.Other_1",
          "Claude_beta123",
        ],
      },
    );
    // in the order the folder lists them; packages of other apps are ignored
    expect(paths("claude-desktop", win)).toEqual([
      "C:\\Users\\u\\AppData\\Roaming\\Claude\\claude_desktop_config.json",
      "C:\\Users\\u\\AppData\\Local\\Packages\\Claude_pzs8sxrjxfjjc\\LocalCache\\Roaming\\Claude\\claude_desktop_config.json",
      "C:\\Users\\u\\AppData\\Local\\Packages\\Claude_beta123\\LocalCache\\Roaming\\Claude\\claude_desktop_config.json",
    ]);
  });

  it("uses the macOS Application Support folders and XDG on Linux", () => {
    const mac = facts({ platform: "darwin", home: "/Users/u" });
    expect(paths("claude-desktop", mac)).toEqual([
      "/Users/u/Library/Application Support/Claude/claude_desktop_config.json",
    ]);
    expect(paths("vscode", mac)).toContain("/Users/u/Library/Application Support/Code/User/mcp.json");
    const linux = facts({ xdgConfigHome: "/xdg" }, { "/xdg/Code/User/profiles": ["abc"] });
    expect(paths("zed", linux)).toEqual(["/xdg/zed/settings.json", "/w/p/.zed/settings.json"]);
    expect(paths("vscode", linux)).toEqual([
      "/xdg/Code/User/mcp.json",
      "/xdg/Code/User/profiles/abc/mcp.json",
      "/xdg/Code - Insiders/User/mcp.json",
      "/w/p/.vscode/mcp.json",
      "/w/p/.devcontainer/devcontainer.json",
      "/w/p/.devcontainer.json",
    ]);
    expect(paths("codex", facts({ codexHome: "/ch" }))).toEqual([
      "/ch/config.toml",
      "/w/p/.codex/config.toml",
      "/etc/codex/config.toml",
    ]);
  });

  it("lists Continue's project block files and Claude Code's project file from --project", () => {
    const f = facts({}, { "/w/p/.continue/mcpServers": ["a.yaml", "b.yml", "notes.txt"] });
    expect(paths("continue", f)).toEqual([
      "/home/u/.continue/config.yaml",
      "/w/p/.continue/mcpServers/a.yaml",
      "/w/p/.continue/mcpServers/b.yml",
    ]);
    expect(paths("claude-code", f)).toEqual(["/home/u/.claude.json", "/w/p/.mcp.json"]);
  });

  it("warns about Claude Code managed allowlists when managed settings exist", () => {
    const spec = clientByName("claude-code");
    const f = facts({ claudeCodeManaged: ["/etc/claude-code/managed-mcp.json"] });
    const notes =
      spec?.notes(f, { client: "claude-code", path: "/w/p/.mcp.json", scope: "project", format: "json" }) ??
      [];
    expect(notes.join("\n")).toMatch(/managed-mcp\.json are present: an allowlist on exact commands/);
    expect(notes.join("\n")).toMatch(/approve/);
  });

  it("has a fixture config for every client", () => {
    const f = facts(
      { home: "home", xdgConfigHome: "home/.config" },
      { "project/.continue/mcpServers": ["db.yaml"] },
    );
    const fixtures = new Set(fixtureFiles());
    for (const c of CLIENTS)
      expect(
        c.files(f, "project").some((x) => fixtures.has(x.path)),
        c.name,
      ).toBe(true);
  });
});
