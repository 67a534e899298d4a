// Recall over the attack corpus: per level, per category; invisible scenarios kept apart and
// never counted as stopped.
import { LEVELS, type Level } from "../types.js";
import type { Scenario } from "./scenario.js";
import { runScenario, type JudgeFactory, type ScenarioRun } from "./attack.js";

export interface Ratio {
  stopped: number;
  total: number;
  recall: number | null;
}

export interface RecallReport {
  scenarios: number;
  visible: number;
  invisible: { id: string; title: string; category: string; why: string }[];
  perLevel: Record<Level, Ratio>;
  perCategory: Record<string, Record<Level, Ratio>>;
  runs: ScenarioRun[];
  /** Missed at enforce and strict, with the reason, level by level. */
  missed: ScenarioRun[];
}

function ratio(runs: readonly ScenarioRun[]): Ratio {
  const stopped = runs.filter((r) => r.stopped).length;
  return { stopped, total: runs.length, recall: runs.length === 0 ? null : stopped / runs.length };
}

export function evaluateAttacks(
  scenarios: readonly Scenario[],
  makeJudge: JudgeFactory,
  levels: readonly Level[] = LEVELS,
): RecallReport {
  const visible = scenarios.filter((s) => s.visible);
  const runs: ScenarioRun[] = [];
  for (const level of levels) for (const s of visible) runs.push(runScenario(s, level, makeJudge));
  const perLevel = {} as Record<Level, Ratio>;
  for (const level of levels) perLevel[level] = ratio(runs.filter((r) => r.level === level));
  const categories = [...new Set(visible.map((s) => s.category))].sort();
  const perCategory: Record<string, Record<Level, Ratio>> = {};
  for (const c of categories) {
    const row = {} as Record<Level, Ratio>;
    for (const level of levels) row[level] = ratio(runs.filter((r) => r.level === level && r.category === c));
    perCategory[c] = row;
  }
  return {
    scenarios: scenarios.length,
    visible: visible.length,
    invisible: scenarios
      .filter((s) => !s.visible)
      .map((s) => ({ id: s.id, title: s.title, category: s.category, why: s.why_invisible ?? "" })),
    perLevel,
    perCategory,
    runs,
    missed: runs.filter((r) => !r.stopped && r.level !== "observe"),
  };
}
