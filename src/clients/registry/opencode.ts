// opencode: `mcp.NAME` with the whole argv in one `command` array and `environment` for env.
import type { ClientSpec } from "../types.js";
import { type FileList, mapAt, pj, RESTART, xdgConfig } from "./common.js";

export const opencode: ClientSpec = {
  name: "opencode",
  title: "opencode",
  layout: "map",
  commandStyle: "argv-array",
  envKey: "environment",
  files(facts, projectDir) {
    const out: FileList = [];
    for (const dir of [pj(facts, xdgConfig(facts), "opencode"), projectDir]) {
      const scope = dir === projectDir ? "project" : "user";
      out.push({ path: pj(facts, dir, "opencode.json"), scope, format: "jsonc" });
      out.push({ path: pj(facts, dir, "opencode.jsonc"), scope, format: "jsonc" });
    }
    return out;
  },
  containers: mapAt("mcp"),
  notes: (_facts, file) =>
    file.scope === "project"
      ? [`opencode: ${RESTART}; project servers must be approved again (opencode mcp approve)`]
      : [`opencode: ${RESTART}`],
};
