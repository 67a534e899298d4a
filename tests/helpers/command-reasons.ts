import type { Cwd } from "../../src/core/commands/api.js";
import { analysisOf, effectHead } from "./commands.js";

/**
 * What a command does, with the reasons: `read PATH`, `write PATH`, `exec PATH` for the path
 * effects, and `CLASS: DOES` for each class effect (`unknown: sed -f: the script is in a file`),
 * so that a test pins the reason a handler gives, not only the class.
 */
export function reasons(command: string, cwds: Cwd[] = [undefined]): string[] {
  const a = analysisOf(command, cwds);
  if (a.unreadable !== undefined) return [`unreadable ${a.unreadable}`];
  return a.effects.map((e) =>
    e.kind === "command" ? `${e.via.class ?? "?"}: ${e.via.does}` : effectHead(e),
  );
}
