// Which command line starts this effectgate. Decision 0035: the absolute node executable plus
// the realpath of dist/main.js, so a config works without PATH, npm shims or an executable bit.
import { realpathSync } from "node:fs";
import type { Launcher } from "./relay-argv.js";

export function currentLauncher(): { launcher: Launcher; knownMains: string[] } {
  const script = process.argv[1];
  if (script === undefined)
    throw new Error("cannot tell where effectgate is installed: process.argv[1] is empty");
  const main = realpathSync(script);
  if (/\.[cm]?js$/i.test(main)) return { launcher: { words: [process.execPath, main] }, knownMains: [main] };
  return { launcher: { words: [main] }, knownMains: [main] };
}
