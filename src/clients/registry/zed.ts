// Zed: settings.json (JSONC, usually starting with comments), servers in `context_servers`.
import type { ClientSpec } from "../types.js";
import { mapAt, pj, RESTART, xdgConfig } from "./common.js";

export const zed: ClientSpec = {
  name: "zed",
  title: "Zed",
  commandStyle: "command+args",
  envKey: "env",
  files: (facts, projectDir) => [
    {
      path:
        facts.platform === "win32"
          ? pj(facts, facts.appData ?? pj(facts, facts.home, "AppData", "Roaming"), "Zed", "settings.json")
          : pj(facts, xdgConfig(facts), "zed", "settings.json"),
      scope: "user",
      format: "jsonc",
    },
    { path: pj(facts, projectDir, ".zed", "settings.json"), scope: "project", format: "jsonc" },
  ],
  containers: mapAt("context_servers"),
  notes: () => [`Zed: ${RESTART}`],
};
