// The order in which a path meets the policy's path lists: the one place it is decided, for a
// path itself (judge-effect.ts) and for the paths below a folder moved or removed as a whole
// (decide.ts). The first list that matches decides, so the lists come strictest first.
import type { PathList } from "../policy/api.js";
import type { Effect, Verdict } from "../types.js";

/** What besides the operation decides a path's rules. */
export interface PathRuleState {
  /** The session has taken in untrusted content. */
  tainted: boolean;
  /**
   * The path is spelled so that Windows opens it under another name (Canonical.renamed). For
   * `deny_if_tainted` it counts as taint: no honest write spells `.env.` or `.env:x` (decision 0143).
   */
  renamed?: boolean;
}

/**
 * Rules a path meets, strictest first. Reads only meet `deny_read`: reading package.json is fine.
 * A write meets `deny`, then `deny_if_tainted` (deny once tainted, else confirm), then `confirm`,
 * then, once tainted, `confirm_if_tainted`. Before `confirm`, `deny_if_tainted` names its own
 * rule in an untainted session too, so the notice says what taint would change.
 */
export function pathRules(op: Effect["operation"], state: PathRuleState): Array<[PathList, Verdict]> {
  if (op === "read") return [["deny_read", "deny"]];
  const lists: Array<[PathList, Verdict]> = [
    ["deny", "deny"],
    ["deny_if_tainted", state.tainted || state.renamed === true ? "deny" : "confirm"],
    ["confirm", "confirm"],
  ];
  if (state.tainted) lists.push(["confirm_if_tainted", "confirm"]);
  return lists;
}

/** Said after a verdict that the session's taint made stricter. */
export const TAINT_NOTE = ", and this session has taken in untrusted content";
const RENAMED_NOTE =
  ", spelled so that Windows opens it under another name (a trailing dot or space, or a :stream), which no honest write does";
const UNTAINTED_NOTE = ", so it is refused once this session takes in untrusted content";

/** What a match of `list` adds to the reason: the taint, or the spelling, that set its verdict. */
export function ruleNote(list: PathList, state: PathRuleState): string {
  if (list === "confirm_if_tainted") return TAINT_NOTE;
  if (list !== "deny_if_tainted") return "";
  if (state.tainted) return TAINT_NOTE;
  return state.renamed === true ? RENAMED_NOTE : UNTAINTED_NOTE;
}
