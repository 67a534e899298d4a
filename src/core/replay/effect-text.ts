// One effect of a judged call as a reader sees it: what it does and to which canonical thing.
import { isRecord } from "./messages.js";

/** At most this many effects are shown per call; the rest are counted. */
const EFFECTS_SHOWN = 3;

/**
 * `read /home/u/p/a.md`, `write ~/.bashrc`, `exec "npm test"`: the operation, then the
 * canonical path (the spelling when none was made), the command quoted. Undefined for a value
 * that is not an effect as the relay logs one (src/core/types.ts Effect).
 */
export function effectText(e: unknown): string | undefined {
  if (!isRecord(e) || typeof e["operation"] !== "string" || typeof e["spelled"] !== "string")
    return undefined;
  const canonical = typeof e["canonical"] === "string" ? e["canonical"] : undefined;
  if (e["kind"] === "command") return `${e["operation"]} ${JSON.stringify(e["spelled"])}`;
  return `${e["operation"]} ${canonical ?? e["spelled"]}`;
}

/** The first effects of a decision's list, and how many more it named (also `effectsOmitted`). */
export function effectsOf(data: Record<string, unknown>): { shown: string[]; more: number } {
  const list = Array.isArray(data["effects"]) ? data["effects"] : [];
  const texts = [...new Set(list.map(effectText).filter((t): t is string => t !== undefined))];
  const omitted = typeof data["effectsOmitted"] === "number" ? data["effectsOmitted"] : 0;
  const shown = texts.slice(0, EFFECTS_SHOWN);
  return { shown, more: texts.length - shown.length + omitted };
}
