// Continue: YAML with `mcpServers` as a LIST of `{name, command, args, …}`; the global
// config.yaml and one block file per server set in <project>/.continue/mcpServers/. That folder
// also takes Claude/Cursor-style JSON files with an `mcpServers` map.
import type { ClientSpec } from "../types.js";
import { type FileList, pj, isObject, RESTART } from "./common.js";

export const continueDev: ClientSpec = {
  name: "continue",
  title: "Continue",
  commandStyle: "command+args",
  envKey: "env",
  files(facts, projectDir) {
    const out: FileList = [
      { path: pj(facts, facts.home, ".continue", "config.yaml"), scope: "user", format: "yaml" },
    ];
    const blocks = pj(facts, projectDir, ".continue", "mcpServers");
    for (const name of facts.listFiles(blocks)) {
      if (/\.ya?ml$/i.test(name))
        out.push({ path: pj(facts, blocks, name), scope: "project", format: "yaml" });
      else if (/\.json$/i.test(name))
        out.push({ path: pj(facts, blocks, name), scope: "project", format: "json" });
    }
    return out;
  },
  containers: (doc, file) => {
    if (!isObject(doc)) return [];
    const ok = file.format === "json" ? isObject(doc.mcpServers) : Array.isArray(doc.mcpServers);
    return ok ? [{ at: ["mcpServers"], label: "" }] : [];
  },
  notes: () => [`Continue: ${RESTART}`],
};
