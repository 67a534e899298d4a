import { analyseCommand } from "../../src/core/commands/analyse.js";
import { catalogueFor, scriptReader } from "../../src/core/commands/setup.js";
import { KIT } from "./commands.js";

/**
 * Every effect of a command as one line, with what the handler says it does and the marks it
 * sets, so a test pins the whole reading: `read a.tar: reads`, `write .: unpacks into (place)`,
 * `send h:22: sends data to`, `read f: sends the content of (sent)`, `class none: tar packs files`,
 * and `legacy TEXT` for a simple command read the old way. commandEffects drops the words and
 * marks; these are what a mutated message or a lost `sent` changes.
 */
export function effectLines(command: string): string[] {
  const a = analyseCommand(command, {
    catalogue: catalogueFor(KIT, new Map()),
    codeVariables: KIT.variables,
    parse: scriptReader(KIT.parser),
    cwds: [undefined],
  });
  if (a.unreadable !== undefined) return [`unreadable ${a.unreadable}`];
  return [
    ...a.effects.map((e) => {
      const head =
        e.kind === "command"
          ? `class ${e.via.class ?? "?"}`
          : e.kind === "url"
            ? `url ${e.spelled}`
            : `${e.operation} ${e.spelled}`;
      const marks = [
        e.via.container,
        e.via.sent === true ? "sent" : undefined,
        e.via.downloaded === true ? "downloaded" : undefined,
      ].filter((m) => m !== undefined);
      return `${head}: ${e.via.does}${marks.length > 0 ? ` (${marks.join(", ")})` : ""}`;
    }),
    ...a.legacy.map((l) => `legacy ${l}`),
  ];
}
