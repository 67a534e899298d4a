import { homedir, userInfo } from "node:os";
import { join } from "node:path";

/** effectgate's own folder: `$EFFECTGATE_HOME`, else `~/.effectgate`. */
export function effectgateHome(env: NodeJS.ProcessEnv = process.env): string {
  const set = env["EFFECTGATE_HOME"];
  return set !== undefined && set !== "" ? set : join(env["HOME"] || homedir(), ".effectgate");
}

/** Who is using this machine, as a grant file names who said yes: `$USER`, else the OS's name. */
export function userName(env: NodeJS.ProcessEnv = process.env): string {
  const set = env["USER"] ?? env["USERNAME"];
  if (set !== undefined && set !== "") return set;
  try {
    return userInfo().username;
  } catch {
    return "an unknown user";
  }
}
