// VS Code: `servers` in the user-profile mcp.json (stable, Insiders, every profile) and in the
// workspace .vscode/mcp.json. JSONC. Changed servers must be trusted again.
import type { ClientSpec } from "../types.js";
import { type FileList, mapAt, pj, vscodeUserDirs } from "./common.js";

export const vscode: ClientSpec = {
  name: "vscode",
  title: "VS Code",
  layout: "map",
  commandStyle: "command+args",
  envKey: "env",
  files(facts, projectDir) {
    const out: FileList = [];
    for (const user of vscodeUserDirs(facts)) {
      out.push({ path: pj(facts, user, "mcp.json"), scope: "user", format: "jsonc" });
      const profiles = pj(facts, user, "profiles");
      for (const id of facts.listDirs(profiles))
        out.push({ path: pj(facts, profiles, id, "mcp.json"), scope: "user", format: "jsonc" });
    }
    out.push({ path: pj(facts, projectDir, ".vscode", "mcp.json"), scope: "project", format: "jsonc" });
    return out;
  },
  containers: mapAt("servers"),
  notes: () => ["VS Code asks again to trust each changed server; restart the servers from the MCP view"],
};
