// Windsurf: Claude Desktop's schema, remote servers under `serverUrl`. Admin whitelists match
// the command and each argument by anchored regex, so a wrapped server may be refused.
import type { ClientSpec } from "../types.js";
import { mapAt, pj } from "./common.js";

export const windsurf: ClientSpec = {
  name: "windsurf",
  title: "Windsurf",
  commandStyle: "command+args",
  envKey: "env",
  files: (facts) => [
    { path: pj(facts, facts.home, ".codeium", "windsurf", "mcp_config.json"), scope: "user", format: "json" },
    { path: pj(facts, facts.home, ".codeium", "mcp_config.json"), scope: "user", format: "json" },
  ],
  containers: mapAt("mcpServers"),
  notes: () => [
    "Windsurf: refresh the MCP servers (or restart); a team admin whitelist of exact commands and arguments may refuse the wrapped servers",
  ],
};
