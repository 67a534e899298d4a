// Codex: TOML, one `[mcp_servers.NAME]` table per server. A duplicated table makes Codex refuse
// the whole file, so the editor changes lines inside the existing table only. /etc/codex holds a
// system-wide file on POSIX machines.
import type { ClientSpec } from "../types.js";
import { type FileList, mapAt, pj, RESTART, systemPath } from "./common.js";

export const codex: ClientSpec = {
  name: "codex",
  title: "Codex",
  commandStyle: "command+args",
  envKey: "env",
  files(facts, projectDir) {
    const out: FileList = [
      {
        path: pj(facts, facts.codexHome ?? pj(facts, facts.home, ".codex"), "config.toml"),
        scope: "user",
        format: "toml",
      },
      { path: pj(facts, projectDir, ".codex", "config.toml"), scope: "project", format: "toml" },
    ];
    if (facts.platform !== "win32")
      out.push({ path: systemPath(facts, "etc", "codex", "config.toml"), scope: "system", format: "toml" });
    return out;
  },
  containers: mapAt("mcp_servers"),
  notes: () => [`Codex: ${RESTART}`],
};
