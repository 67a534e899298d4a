// Continue: YAML with `mcpServers` as a LIST of `{name, command, args, …}`; the global
// config.yaml and one block file per server set in <project>/.continue/mcpServers/.
import type { ClientSpec } from "../types.js";
import { type FileList, pj, isObject, RESTART } from "./common.js";

export const continueDev: ClientSpec = {
  name: "continue",
  title: "Continue",
  layout: "list",
  commandStyle: "command+args",
  envKey: "env",
  files(facts, projectDir) {
    const out: FileList = [
      { path: pj(facts, facts.home, ".continue", "config.yaml"), scope: "user", format: "yaml" },
    ];
    const blocks = pj(facts, projectDir, ".continue", "mcpServers");
    for (const name of facts.listFiles(blocks).filter((n) => /\.ya?ml$/i.test(n))) {
      out.push({ path: pj(facts, blocks, name), scope: "project", format: "yaml" });
    }
    return out;
  },
  containers: (doc) =>
    isObject(doc) && Array.isArray(doc.mcpServers) ? [{ at: ["mcpServers"], label: "" }] : [],
  notes: () => [`Continue: ${RESTART}`],
};
