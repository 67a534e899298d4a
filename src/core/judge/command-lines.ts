import { VERDICT_RANK } from "../types.js";
import type { JudgedEffect } from "./judge-effect.js";

/**
 * One line per thing a parsed command does: the program, the effect, and the verdict it earned,
 * each word's readings (`~/x`, `$HOME/x`, `<cwd>/~/x`) folded into the strictest of them.
 * Effects not of a parsed command (the old word-by-word reading) are left to the full list.
 */
export function commandLines(items: readonly JudgedEffect[]): string[] {
  const best = new Map<string, JudgedEffect>();
  for (const item of items) {
    const via = item.effect.via;
    if (via === undefined) continue;
    const key = `${via.command}\u0000${via.does}\u0000${via.word ?? ""}\u0000${item.effect.operation}`;
    const seen = best.get(key);
    if (seen === undefined || VERDICT_RANK[item.verdict] > VERDICT_RANK[seen.verdict]) best.set(key, item);
  }
  return [...best.values()].map((item) => {
    const via = item.effect.via as NonNullable<JudgedEffect["effect"]["via"]>;
    const what = item.effect.kind === "command" ? "" : ` ${item.effect.canonical ?? item.effect.spelled}`;
    const does =
      item.effect.kind === "path" && item.effect.operation === "read" && via.does === "names"
        ? "names (read)"
        : via.does;
    return `${via.command}: ${does}${what} (${item.rule === undefined ? "" : `rule ${item.rule}, `}${item.verdict})`;
  });
}
