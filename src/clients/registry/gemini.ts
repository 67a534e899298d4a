// Gemini CLI: settings.json (JSONC) in ~/.gemini and <project>/.gemini, `mcpServers` map, plus
// one system-wide settings.json per OS.
import type { ClientSpec, MachineFacts } from "../types.js";
import { mapAt, pj, RESTART, systemPath } from "./common.js";

function systemFile(facts: MachineFacts): string {
  if (facts.platform === "win32")
    return pj(facts, facts.programData ?? "C:\\ProgramData", "gemini-cli", "settings.json");
  if (facts.platform === "darwin")
    return systemPath(facts, "Library", "Application Support", "GeminiCli", "settings.json");
  return systemPath(facts, "etc", "gemini-cli", "settings.json");
}

export const gemini: ClientSpec = {
  name: "gemini",
  title: "Gemini CLI",
  commandStyle: "command+args",
  envKey: "env",
  files: (facts, projectDir) => [
    { path: pj(facts, facts.home, ".gemini", "settings.json"), scope: "user", format: "jsonc" },
    { path: pj(facts, projectDir, ".gemini", "settings.json"), scope: "project", format: "jsonc" },
    { path: systemFile(facts), scope: "system", format: "jsonc" },
  ],
  containers: mapAt("mcpServers"),
  notes: () => [`Gemini CLI: ${RESTART}`],
};
