// Vocabulary shared by every layer. Pure types: no behaviour lives here.

/** How hard effectgate acts on a verdict. Defined once, in levels.ts. */
export type Level = "observe" | "enforce" | "strict";
export const LEVELS: readonly Level[] = ["observe", "enforce", "strict"];

/** The policy's answer for one call; deny > confirm > allow. */
export type Verdict = "allow" | "confirm" | "deny";

/** JSON-RPC ids: `1` and `"1"` are different ids and must stay so. */
export type JsonRpcId = string | number;

/** Which file-system rules apply to a path: profiles exist for all three on every OS. */
export type Platform = "linux" | "darwin" | "win32";

/** What a call would do with one thing it names. */
export type Operation = "read" | "write" | "exec";

export interface Effect {
  operation: Operation;
  /** `path` for file-system effects, `command` for exec, `url` for network reads. */
  kind: "path" | "command" | "url";
  /** Where in the params the value was found, e.g. `arguments.paths[1]`. */
  at: string;
  /** The value as the call spelled it. */
  spelled: string;
  /** The canonical form that rules are matched against (paths only). */
  canonical?: string;
}

export interface Decision {
  verdict: Verdict;
  /** The rule that produced the verdict, e.g. `paths.deny ~/.ssh/**`; absent for a plain allow. */
  rule?: string;
  /** One sentence for humans and for the model. */
  reason: string;
  effects: Effect[];
  tainted: boolean;
  /**
   * Set when the call could not be judged (malformed frame, duplicate keys, over budget, a path
   * that cannot be canonicalised). Such a decision always carries verdict "deny", so that enforce
   * and strict refuse it; observe still only records it.
   */
  unjudgeable?: string;
}
