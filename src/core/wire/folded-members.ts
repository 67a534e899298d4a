/**
 * Members that a server matching names without regard to case (Go's encoding/json) reads as the
 * JSON-RPC envelope or a request's params (decision 0063).
 */
import { isRecord, type Message } from "./jsonrpc.js";
import { foldKey, foldVariants } from "../json/key-fold.js";

/** Members of a JSON-RPC message and of a request's params that a server reads by name. */
const ENVELOPE_NAMES = ["jsonrpc", "id", "method", "params", "result", "error"] as const;
const PARAMS_NAMES = [
  "name",
  "arguments",
  "uri",
  "_meta",
  "task",
  "cursor",
  "requestState",
  "inputResponses",
] as const;

/**
 * Why a client frame can be read another way by a server that matches member names without
 * regard to case (Go's encoding/json: `"Method"`, `"PARAMS"`, `"Arguments"`, `"paramſ"`), or
 * undefined. Such a member is a second spelling of the one effectgate judges, like a duplicate
 * key, and refuses a judged call the same way.
 */
export function foldedKeyProblem(value: unknown): string | undefined {
  const messages = Array.isArray(value) ? value : [value];
  for (const m of messages) {
    if (!isRecord(m)) continue;
    const problem = foldProblemIn(m, ENVELOPE_NAMES, "") ?? paramsFoldProblem(m.params);
    if (problem !== undefined) return problem;
  }
  return undefined;
}

function paramsFoldProblem(params: unknown): string | undefined {
  return isRecord(params) ? foldProblemIn(params, PARAMS_NAMES, "params.") : undefined;
}

function foldProblemIn(obj: Message, names: readonly string[], where: string): string | undefined {
  const variant = foldVariants(obj, names)[0];
  if (variant === undefined) return undefined;
  const meant = names.find((n) => foldKey(n) === foldKey(variant)) ?? variant;
  return `member ${where}${JSON.stringify(variant)} is "${meant}" in another case: a server that matches names without regard to case (Go's encoding/json) reads it as ${where}${meant}`;
}
