// Claude Desktop: one JSON file that also holds app preferences. Windows MSIX installs read the
// copy under %LOCALAPPDATA%\Packages\Claude_*\… and ignore %APPDATA%\Claude, so both are listed.
import type { ClientSpec } from "../types.js";
import { type FileList, mapAt, pj, RESTART, xdgConfig } from "./common.js";

const FILE = "claude_desktop_config.json";

export const claudeDesktop: ClientSpec = {
  name: "claude-desktop",
  title: "Claude Desktop",
  commandStyle: "command+args",
  envKey: "env",
  files(facts) {
    const out: FileList = [];
    if (facts.platform === "darwin") {
      out.push({
        path: pj(facts, facts.home, "Library", "Application Support", "Claude", FILE),
        scope: "user",
        format: "json",
      });
    } else if (facts.platform === "win32") {
      if (facts.appData)
        out.push({ path: pj(facts, facts.appData, "Claude", FILE), scope: "user", format: "json" });
      if (facts.localAppData) {
        const packages = pj(facts, facts.localAppData, "Packages");
        for (const dir of facts.listDirs(packages).filter((d) => d.startsWith("Claude_"))) {
          out.push({
            path: pj(facts, packages, dir, "LocalCache", "Roaming", "Claude", FILE),
            scope: "user",
            format: "json",
          });
        }
      }
    } else {
      out.push({ path: pj(facts, xdgConfig(facts), "Claude", FILE), scope: "user", format: "json" });
    }
    return out;
  },
  containers: mapAt("mcpServers"),
  notes: () => [`Claude Desktop: quit it fully and start it again (${RESTART})`],
};
