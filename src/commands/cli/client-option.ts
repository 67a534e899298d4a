// The `--client` option of install and uninstall, and the list of client names their help
// shows, both from the client registry. Kept apart from values.ts so that the relay, which
// needs none of this, does not load the registry.
import { CLIENTS } from "../../clients/registry/index.js";
import type { OptionDeclaration } from "./declaration.js";

/** "claude-desktop, claude-code, …" wrapped for help text. */
export function clientNames(): string {
  return CLIENTS.map((c) => c.name).join(", ");
}

export const clientOption: OptionDeclaration = {
  flags: "--client <names>",
  meaning: `only these clients, comma-separated or repeated: ${clientNames()}`,
  default: "every client found",
  repeatable: true,
};
