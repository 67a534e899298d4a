// Rules between keys of one section that the schema cannot express.
import { VERDICT_RANK } from "../types.js";
import type { PolicyProblem } from "./compile-lists.js";
import type { PolicyDocument } from "./schema.js";

/** `commands.X_if_tainted` may only be stricter than `commands.X`. */
export function crossCheckCommands(commands: PolicyDocument["commands"]): PolicyProblem[] {
  const problems: PolicyProblem[] = [];
  if (commands === undefined) return problems;
  for (const [base, tainted] of [
    ["known", "known_if_tainted"],
    ["project", "project_if_tainted"],
    ["after_write", "after_write_if_tainted"],
    ["sends", "sends_if_tainted"],
  ] as const) {
    const b = commands[base];
    const t = commands[tainted];
    if (b !== undefined && t !== undefined && VERDICT_RANK[t] < VERDICT_RANK[b])
      problems.push({ path: ["commands", tainted], expected: `a verdict at least as strict as commands.${base} (${b})`, got: t });
  }
  return problems;
}

/** Rules between keys of `exec:` that the schema cannot express (given a valid exec section). */
export function crossCheck(exec: PolicyDocument["exec"]): PolicyProblem[] {
  const problems: PolicyProblem[] = [];
  if (exec === undefined) return problems;
  if ((exec.tools?.length ?? 0) > 0 && exec.action === undefined) {
    // No silent default: listing exec tools without saying what happens to them is a mistake.
    problems.push({
      path: ["exec", "action"],
      expected: "one of allow, confirm, deny (required when exec.tools lists tools)",
      got: "nothing",
    });
  } else if (exec.action === undefined && exec.action_if_tainted !== undefined) {
    problems.push({
      path: ["exec", "action"],
      expected: "one of allow, confirm, deny (required with exec.action_if_tainted)",
      got: "nothing",
    });
  }
  if (
    exec.action !== undefined &&
    exec.action_if_tainted !== undefined &&
    VERDICT_RANK[exec.action_if_tainted] < VERDICT_RANK[exec.action]
  ) {
    // Untrusted content in the session may only make the answer stricter.
    problems.push({
      path: ["exec", "action_if_tainted"],
      expected: `a verdict at least as strict as exec.action (${exec.action})`,
      got: exec.action_if_tainted,
    });
  }
  return problems;
}
