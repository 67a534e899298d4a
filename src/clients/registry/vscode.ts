// VS Code: `servers` in the user-profile mcp.json (stable, Insiders, every profile) and in the
// workspace .vscode/mcp.json. JSONC. Changed servers must be trusted again.
// A dev container declares servers under `customizations.vscode.mcp.servers` of its
// devcontainer.json; those servers start INSIDE the container, where the host's absolute
// effectgate paths do not exist, so such files are read (verify, watch) but never rewritten.
import type { ClientSpec } from "../types.js";
import { type FileList, isObject, pj, valueAt, vscodeUserDirs } from "./common.js";

const DEVCONTAINER_SERVERS = ["customizations", "vscode", "mcp", "servers"];
const IN_CONTAINER =
  "dev container servers run inside the container, where this effectgate's paths do not exist; install effectgate in the image and wrap them there";

export const vscode: ClientSpec = {
  name: "vscode",
  title: "VS Code",
  commandStyle: "command+args",
  envKey: "env",
  files(facts, projectDir) {
    const out: FileList = [];
    for (const user of vscodeUserDirs(facts)) {
      out.push({ path: pj(facts, user, "mcp.json"), scope: "user", format: "jsonc" });
      const profiles = pj(facts, user, "profiles");
      for (const id of facts.listDirs(profiles))
        out.push({ path: pj(facts, profiles, id, "mcp.json"), scope: "user", format: "jsonc" });
    }
    out.push({ path: pj(facts, projectDir, ".vscode", "mcp.json"), scope: "project", format: "jsonc" });
    // The dev container spec's three places: .devcontainer/, .devcontainer/<name>/, the root.
    const dc = pj(facts, projectDir, ".devcontainer");
    const devcontainers = [
      pj(facts, dc, "devcontainer.json"),
      ...facts.listDirs(dc).map((d) => pj(facts, dc, d, "devcontainer.json")),
      pj(facts, projectDir, ".devcontainer.json"),
    ];
    for (const path of devcontainers)
      out.push({ path, scope: "project", format: "jsonc", readOnly: IN_CONTAINER });
    return out;
  },
  containers(doc, file) {
    const at = /devcontainer\.json$/.test(file.path) ? DEVCONTAINER_SERVERS : ["servers"];
    return isObject(valueAt(doc, at)) ? [{ at, label: "" }] : [];
  },
  notes: () => ["VS Code asks again to trust each changed server; restart the servers from the MCP view"],
};
