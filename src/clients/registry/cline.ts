// Cline: strict JSON in the VS Code extension's global storage, or the CLI's own folder.
import type { ClientSpec } from "../types.js";
import { mapAt, pj, vscodeUserDirs } from "./common.js";

const FILE = "cline_mcp_settings.json";

export const cline: ClientSpec = {
  name: "cline",
  title: "Cline",
  commandStyle: "command+args",
  envKey: "env",
  files: (facts) => [
    ...vscodeUserDirs(facts).map((user) => ({
      path: pj(facts, user, "globalStorage", "saoudrizwan.claude-dev", "settings", FILE),
      scope: "user" as const,
      format: "json" as const,
    })),
    {
      path: pj(facts, facts.clineDir ?? pj(facts, facts.home, ".cline"), "data", "settings", FILE),
      scope: "user",
      format: "json",
    },
  ],
  containers: mapAt("mcpServers"),
  notes: () => ["Cline restarts servers when its settings file changes"],
};
