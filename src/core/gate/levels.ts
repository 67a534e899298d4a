import type { Level, Verdict } from "../types.js";

/**
 * What the relay does with a verdict at a level. The single definition of the levels:
 * observe records only; enforce refuses deny and relays confirm with a notice;
 * strict refuses deny and asks about confirm (refusing when nobody can be asked).
 */
export type Outcome = "forward" | "forward-noted" | "refuse" | "ask";

export function outcomeFor(level: Level, verdict: Verdict): Outcome {
  if (verdict === "allow" || level === "observe") return "forward";
  if (verdict === "deny") return "refuse";
  return level === "enforce" ? "forward-noted" : "ask";
}

export function parseLevel(value: string): Level | undefined {
  return value === "observe" || value === "enforce" || value === "strict" ? value : undefined;
}
