import { analysisOf, effectHead } from "./commands.js";

/**
 * Every effect of a command as one line, with what the handler says it does and the marks it
 * sets, so a test pins the whole reading: `read a.tar: reads`, `write .: unpacks into (place)`,
 * `send h:22: sends data to`, `read f: sends the content of (sent)`, `class none: tar packs files`,
 * and `legacy TEXT` for a simple command read the old way. commandEffects drops the words and
 * marks; these are what a mutated message or a lost `sent` changes.
 */
export function effectLines(command: string): string[] {
  const a = analysisOf(command);
  if (a.unreadable !== undefined) return [`unreadable ${a.unreadable}`];
  return [
    ...a.effects.map((e) => {
      const marks = [
        e.via.container,
        e.via.sent === true ? "sent" : undefined,
        e.via.downloaded === true ? "downloaded" : undefined,
      ].filter((m) => m !== undefined);
      return `${effectHead(e)}: ${e.via.does}${marks.length > 0 ? ` (${marks.join(", ")})` : ""}`;
    }),
    ...a.legacy.map((l) => `legacy ${l}`),
  ];
}
