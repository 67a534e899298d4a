// Helpers shared by the per-client modules.
import type { ClientSpec, ConfigFile, MachineFacts, ServerContainer } from "../types.js";

/** Joins with the separator of the machine described, not of the one running the tests. */
export function pj(facts: MachineFacts, ...parts: string[]): string {
  const sep = facts.sep;
  return parts
    .map((p, i) => (i === 0 ? p.replace(/[\\/]+$/, "") : p.replace(/^[\\/]+|[\\/]+$/g, "")))
    .filter((p) => p !== "")
    .join(sep);
}

/** `~/.config` or `$XDG_CONFIG_HOME` (macOS and Linux tools that follow XDG). */
export function xdgConfig(facts: MachineFacts): string {
  return facts.xdgConfigHome ?? pj(facts, facts.home, ".config");
}

/** The VS Code family's `User` folders: stable and Insiders, per OS. */
export function vscodeUserDirs(facts: MachineFacts): string[] {
  const root =
    facts.platform === "darwin"
      ? pj(facts, facts.home, "Library", "Application Support")
      : facts.platform === "win32"
        ? (facts.appData ?? pj(facts, facts.home, "AppData", "Roaming"))
        : xdgConfig(facts);
  return ["Code", "Code - Insiders"].map((app) => pj(facts, root, app, "User"));
}

/** A system-wide POSIX path (`/etc/…`, `/Library/…`), under the facts' root. */
export function systemPath(facts: MachineFacts, ...parts: string[]): string {
  return [facts.systemRoot ?? "", ...parts].join("/");
}

/** The value at `at` inside a parsed document, or undefined. */
export function valueAt(doc: unknown, at: readonly string[]): unknown {
  let cur = doc;
  for (const k of at) cur = isObject(cur) ? cur[k] : undefined;
  return cur;
}

/** A single server map at a top-level key. */
export function mapAt(key: string): ClientSpec["containers"] {
  return (doc: unknown): ServerContainer[] => (isObject(doc) && key in doc ? [{ at: [key], label: "" }] : []);
}

export function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

export const RESTART = "restart the client for the change to take effect";

export type FileList = Omit<ConfigFile, "client">[];
