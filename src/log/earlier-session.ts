// Whether a server has had a session before: the relay tells a user about the observe level in
// the first session of each server only (core/gate/observe-notice.ts).
import { readdirSync } from "node:fs";
import { parseLogFileName, sanitizeName } from "./naming.js";

/**
 * True when `dir` holds a session log of a server named `name` (null: sessions started without
 * --name). A folder that does not exist or cannot be listed holds none: the notice is said again
 * rather than never.
 */
export function hasEarlierSession(dir: string, name: string | null): boolean {
  let files: string[];
  try {
    files = readdirSync(dir);
  } catch {
    return false;
  }
  const wanted = sanitizeName(name);
  return files.some((f) => {
    const parsed = parseLogFileName(f);
    return parsed !== null && parsed.part === 1 && parsed.name === wanted;
  });
}
