// Machine facts the client registry needs: home and per-OS config roots, directory listings
// (MSIX package folders, VS Code profiles) and the presence of managed Claude Code settings.
import { existsSync, readdirSync } from "node:fs";
import { homedir } from "node:os";
import { join } from "node:path";
import type { Platform } from "../core/types.js";

/**
 * Facts about the machine, gathered once by src/platform/client-paths.ts. Directory listing is
 * passed in as a function so that the registry can glob (MSIX packages, VS Code profiles) while
 * staying free of I/O itself, and tests can describe a Windows or macOS machine on Linux.
 */
export interface MachineFacts {
  platform: Platform;
  home: string;
  appData?: string | undefined;
  localAppData?: string | undefined;
  xdgConfigHome?: string | undefined;
  codexHome?: string | undefined;
  clineDir?: string | undefined;
  /** `$OPENCODE_CONFIG`: an explicit opencode config file. */
  opencodeConfig?: string | undefined;
  /** Windows `%ProgramData%` (system-wide Gemini CLI settings). */
  programData?: string | undefined;
  /**
   * Prefix for system-wide POSIX paths such as /etc/codex; "" (the real root) on a machine.
   * Only tests describing a machine set it, so that system files can be made without root.
   */
  systemRoot?: string | undefined;
  /** Names of the entries in `dir` that are directories (empty when it does not exist). */
  listDirs(dir: string): string[];
  /** Names of the entries in `dir` that are files (empty when it does not exist). */
  listFiles(dir: string): string[];
  /** Managed Claude Code files (managed-mcp.json, managed-settings.json) present on this machine. */
  claudeCodeManaged: string[];
  /** Path separator style for joining: "/" or "\\". */
  sep: "/" | "\\";
}

function list(dir: string, wantDirs: boolean): string[] {
  try {
    return readdirSync(dir, { withFileTypes: true })
      .filter((e) => (wantDirs ? e.isDirectory() : e.isFile() || e.isSymbolicLink()))
      .map((e) => e.name)
      .sort();
  } catch {
    return [];
  }
}

const MANAGED_CLAUDE_CODE: Record<string, string[]> = {
  darwin: ["/Library/Application Support/ClaudeCode"],
  linux: ["/etc/claude-code"],
  win32: ["C:\\Program Files\\ClaudeCode", "C:\\ProgramData\\ClaudeCode"],
};

export function machineFacts(env: NodeJS.ProcessEnv = process.env): MachineFacts {
  const platform = process.platform === "win32" || process.platform === "darwin" ? process.platform : "linux";
  const home = env.HOME || env.USERPROFILE || homedir();
  const managed: string[] = [];
  for (const dir of MANAGED_CLAUDE_CODE[platform] ?? []) {
    for (const name of ["managed-mcp.json", "managed-settings.json"]) {
      const p = join(dir, name);
      if (existsSync(p)) managed.push(p);
    }
  }
  return {
    platform,
    home,
    appData: env.APPDATA || undefined,
    localAppData: env.LOCALAPPDATA || undefined,
    xdgConfigHome: env.XDG_CONFIG_HOME || undefined,
    codexHome: env.CODEX_HOME || undefined,
    clineDir: env.CLINE_DIR || undefined,
    opencodeConfig: env.OPENCODE_CONFIG || undefined,
    programData: env.ProgramData || env.PROGRAMDATA || undefined,
    systemRoot: "",
    listDirs: (dir) => list(dir, true),
    listFiles: (dir) => list(dir, false),
    claudeCodeManaged: managed,
    sep: platform === "win32" ? "\\" : "/",
  };
}
