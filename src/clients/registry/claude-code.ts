// Claude Code: ~/.claude.json holds user servers (`mcpServers`) and per-project local servers
// (`projects.<abs dir>.mcpServers`); a project's own servers live in `<project>/.mcp.json`.
import type { ClientSpec, ServerContainer } from "../types.js";
import { isObject, mapAt, pj, RESTART } from "./common.js";

export const claudeCode: ClientSpec = {
  name: "claude-code",
  title: "Claude Code",
  commandStyle: "command+args",
  envKey: "env",
  files(facts, projectDir) {
    return [
      { path: pj(facts, facts.home, ".claude.json"), scope: "user", format: "json" },
      { path: pj(facts, projectDir, ".mcp.json"), scope: "project", format: "json" },
    ];
  },
  containers(doc, file) {
    if (file.scope === "project") return mapAt("mcpServers")(doc, file);
    const out: ServerContainer[] = mapAt("mcpServers")(doc, file);
    if (isObject(doc) && isObject(doc.projects)) {
      for (const [dir, entry] of Object.entries(doc.projects)) {
        if (isObject(entry) && "mcpServers" in entry)
          out.push({ at: ["projects", dir, "mcpServers"], label: `projects/${dir}/` });
      }
    }
    return out;
  },
  notes(facts, file) {
    const notes = [`Claude Code: ${RESTART} (running sessions keep the old command)`];
    if (file.scope === "project")
      notes.push("Claude Code asks again to approve the changed servers of a project .mcp.json");
    for (const m of facts.claudeCodeManaged) {
      notes.push(
        `Claude Code managed settings ${m} are present: an allowlist on exact commands (allowedMcpServers serverCommand) may refuse the wrapped servers`,
      );
    }
    return notes;
  },
};
