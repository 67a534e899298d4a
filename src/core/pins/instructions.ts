import { describeValue } from "../errors.js";
import type { Finding } from "./severity.js";

/**
 * How a server's instructions differ from the approved ones, or undefined when they do not.
 * `live` is what the server sent (`initialize` or `server/discover`); null or absent means none,
 * as approve reads it. Instructions are prompt text the model obeys, like a tool's description:
 * added or changed is high, removed low. Used by approve --diff and by the relay at run time.
 */
export function instructionsFinding(approved: string | undefined, live: unknown): Finding | undefined {
  const now = live === null ? undefined : live;
  if (now !== undefined && typeof now !== "string")
    return {
      text: `server instructions cannot be checked: expected a string, got ${describeValue(now)}`,
      severity: "high",
    };
  if (approved === now) return undefined;
  const text =
    approved === undefined
      ? "server instructions added"
      : now === undefined
        ? "server instructions removed"
        : "server instructions changed";
  return { text, severity: now === undefined ? "low" : "high", was: approved ?? null, now: now ?? null };
}
