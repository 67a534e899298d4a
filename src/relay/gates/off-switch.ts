import type { GateSettings } from "./build-gates.js";

/** EFFECTGATE_OFF turns every check off only for an affirmative value; anything else is "on". */
export function isOffValue(value: string | undefined): boolean {
  if (value === undefined) return false;
  return ["1", "true", "yes", "on"].includes(value.trim().toLowerCase());
}

/**
 * The settings of a relay with every check off. Here, not in build-gates.ts, so that such a relay
 * loads no policy or judge module at all: the kill switch is the cheapest way to start (0107).
 */
export const OFF_SETTINGS: GateSettings = {
  level: "observe",
  from: "off",
  policy: null,
  lock: null,
  envDeny: () => false,
};
