import { homedir } from "node:os";
import { join } from "node:path";

/** effectgate's own folder: `$EFFECTGATE_HOME`, else `~/.effectgate`. */
export function effectgateHome(env: NodeJS.ProcessEnv = process.env): string {
  const set = env["EFFECTGATE_HOME"];
  return set !== undefined && set !== "" ? set : join(env["HOME"] || homedir(), ".effectgate");
}
