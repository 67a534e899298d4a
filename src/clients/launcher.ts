// Which command line starts this effectgate. Decision 0035: the absolute node executable plus
// the realpath of dist/main.js, so a config works without PATH, npm shims or an executable bit.
import { realpathSync } from "node:fs";
import { isAbsolute } from "node:path";
import type { Launcher } from "./relay-argv.js";
import type { ServerDecl } from "./types.js";

export function currentLauncher(): { launcher: Launcher; knownMains: string[] } {
  const script = process.argv[1];
  if (script === undefined)
    throw new Error("cannot tell where effectgate is installed: process.argv[1] is empty");
  const main = realpathSync(script);
  if (/\.[cm]?js$/i.test(main)) return { launcher: { words: [process.execPath, main] }, knownMains: [main] };
  return { launcher: { words: [main] }, knownMains: [main] };
}

/**
 * knownMains plus every absolute program or script word of these declarations whose realpath is
 * one of them: npm's `/usr/local/bin/effectgate` link starts this effectgate as surely as the
 * main.js behind it. Only absolute words: a relative one is resolved against the client's folder.
 * The file system is asked here so that recognising a wrapper (relay-argv.ts) stays pure.
 */
export function withLinkedMains(knownMains: readonly string[], decls: readonly ServerDecl[]): string[] {
  const out = new Set(knownMains);
  for (const word of decls.flatMap((d) => d.argv?.slice(0, 2) ?? [])) {
    if (out.has(word) || !isAbsolute(word)) continue;
    try {
      if (knownMains.includes(realpathSync(word))) out.add(word);
    } catch {
      // a word that names nothing on this machine starts nothing of ours
    }
  }
  return [...out];
}
