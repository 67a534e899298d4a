// opencode: `mcp.NAME` with the whole argv in one `command` array and `environment` for env.
// Also read: the file named by $OPENCODE_CONFIG, the project's .opencode/ folder, and
// `.agents/mcp.json` (user and project): strict JSON whose servers sit at the top level.
import type { ClientSpec } from "../types.js";
import { type FileList, mapAt, pj, RESTART, xdgConfig } from "./common.js";

const AGENTS = /[\\/]\.agents[\\/]mcp\.json$/;

export const opencode: ClientSpec = {
  name: "opencode",
  title: "opencode",
  commandStyle: "argv-array",
  envKey: "environment",
  files(facts, projectDir) {
    const out: FileList = [];
    const global = pj(facts, xdgConfig(facts), "opencode");
    for (const name of ["opencode.json", "opencode.jsonc"])
      out.push({ path: pj(facts, global, name), scope: "user", format: "jsonc" });
    if (facts.opencodeConfig) out.push({ path: facts.opencodeConfig, scope: "user", format: "jsonc" });
    out.push({ path: pj(facts, facts.home, ".agents", "mcp.json"), scope: "user", format: "json" });
    for (const dir of [projectDir, pj(facts, projectDir, ".opencode")])
      for (const name of ["opencode.json", "opencode.jsonc"])
        out.push({ path: pj(facts, dir, name), scope: "project", format: "jsonc" });
    out.push({ path: pj(facts, projectDir, ".agents", "mcp.json"), scope: "project", format: "json" });
    return out;
  },
  containers: (doc, file) => (AGENTS.test(file.path) ? [{ at: [], label: "" }] : mapAt("mcp")(doc, file)),
  notes: (_facts, file) =>
    file.scope === "project"
      ? [`opencode: ${RESTART}; project servers must be approved again (opencode mcp approve)`]
      : [`opencode: ${RESTART}`],
};
