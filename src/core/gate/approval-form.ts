/**
 * The form effectgate asks with, and how an answer to it is read.
 *
 * One required boolean, unticked by default, is the only field that counts. Some clients accept
 * a form they cannot render with empty content, and some accept empty forms by themselves in
 * permissive modes, so only `action: "accept"` with `allow` exactly `true` is a yes
 * (docs/decisions/0103-only-an-explicit-yes.md).
 */
import { isRecord } from "../wire/jsonrpc.js";

/** The `params` of the question: an `elicitation/create` in form mode. */
export function approvalForm(message: string): Record<string, unknown> {
  return {
    mode: "form",
    message,
    requestedSchema: {
      type: "object",
      properties: { allow: { type: "boolean", title: "Allow this call?", default: false } },
      required: ["allow"],
    },
  };
}

export interface Approval {
  answer: "accept" | "decline" | "cancel";
  /** Why it is not a yes, in a few words; absent for a yes. */
  why?: string;
}

/**
 * Reads an elicitation result. Anything but an explicit yes is a no: `decline` when the user
 * said no (or accepted without ticking the box), `cancel` when the question was dismissed or
 * the answer cannot be read.
 */
export function readApproval(result: unknown): Approval {
  if (!isRecord(result)) return { answer: "cancel", why: "the answer is not an object" };
  const action = result["action"];
  if (action === "decline") return { answer: "decline", why: "the user declined" };
  if (action !== "accept")
    return { answer: "cancel", why: action === "cancel" ? "the user dismissed the question" : "no action" };
  const content = result["content"];
  if (!isRecord(content) || Object.keys(content).length === 0)
    return { answer: "decline", why: "accepted with an empty form, which is not a yes" };
  if (content["allow"] !== true)
    return { answer: "decline", why: "accepted without allow set to true, which is not a yes" };
  return { answer: "accept" };
}
