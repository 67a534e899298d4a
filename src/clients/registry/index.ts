// Every client effectgate knows. Adding a client = one module here plus one line below.
import type { ClientSpec } from "../types.js";
import { claudeCode } from "./claude-code.js";
import { claudeDesktop } from "./claude-desktop.js";
import { cline } from "./cline.js";
import { codex } from "./codex.js";
import { continueDev } from "./continue.js";
import { cursor } from "./cursor.js";
import { gemini } from "./gemini.js";
import { opencode } from "./opencode.js";
import { vscode } from "./vscode.js";
import { windsurf } from "./windsurf.js";
import { zed } from "./zed.js";

export const CLIENTS: readonly ClientSpec[] = [
  claudeDesktop,
  claudeCode,
  cursor,
  vscode,
  windsurf,
  codex,
  gemini,
  zed,
  cline,
  opencode,
  continueDev,
];

export function clientByName(name: string): ClientSpec | undefined {
  return CLIENTS.find((c) => c.name === name);
}
