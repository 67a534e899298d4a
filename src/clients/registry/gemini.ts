// Gemini CLI: settings.json (JSONC) in ~/.gemini and <project>/.gemini, `mcpServers` map.
import type { ClientSpec } from "../types.js";
import { mapAt, pj, RESTART } from "./common.js";

export const gemini: ClientSpec = {
  name: "gemini",
  title: "Gemini CLI",
  layout: "map",
  commandStyle: "command+args",
  envKey: "env",
  files: (facts, projectDir) => [
    { path: pj(facts, facts.home, ".gemini", "settings.json"), scope: "user", format: "jsonc" },
    { path: pj(facts, projectDir, ".gemini", "settings.json"), scope: "project", format: "jsonc" },
  ],
  containers: mapAt("mcpServers"),
  notes: () => [`Gemini CLI: ${RESTART}`],
};
