// Cursor: global ~/.cursor/mcp.json and project .cursor/mcp.json, merged with the project winning.
import type { ClientSpec } from "../types.js";
import { mapAt, pj, RESTART } from "./common.js";

export const cursor: ClientSpec = {
  name: "cursor",
  title: "Cursor",
  commandStyle: "command+args",
  envKey: "env",
  files: (facts, projectDir) => [
    { path: pj(facts, facts.home, ".cursor", "mcp.json"), scope: "user", format: "json" },
    { path: pj(facts, projectDir, ".cursor", "mcp.json"), scope: "project", format: "json" },
  ],
  containers: mapAt("mcpServers"),
  notes: () => [`Cursor: ${RESTART} or reload the MCP servers in its settings`],
};
