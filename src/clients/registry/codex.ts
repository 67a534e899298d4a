// Codex: TOML, one `[mcp_servers.NAME]` table per server. A duplicated table makes Codex refuse
// the whole file, so the editor changes lines inside the existing table only.
import type { ClientSpec } from "../types.js";
import { mapAt, pj, RESTART } from "./common.js";

export const codex: ClientSpec = {
  name: "codex",
  title: "Codex",
  layout: "map",
  commandStyle: "command+args",
  envKey: "env",
  files: (facts, projectDir) => [
    {
      path: pj(facts, facts.codexHome ?? pj(facts, facts.home, ".codex"), "config.toml"),
      scope: "user",
      format: "toml",
    },
    { path: pj(facts, projectDir, ".codex", "config.toml"), scope: "project", format: "toml" },
  ],
  containers: mapAt("mcp_servers"),
  notes: () => [`Codex: ${RESTART}`],
};
