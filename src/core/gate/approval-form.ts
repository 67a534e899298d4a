/**
 * The form effectgate asks with, and how an answer to it is read.
 *
 * One required boolean, unticked by default, is the only field that counts. Some clients accept
 * a form they cannot render with empty content, and some accept empty forms by themselves in
 * permissive modes, so only `action: "accept"` with `allow` exactly `true` is a yes
 * (docs/decisions/0103-only-an-explicit-yes.md).
 *
 * A second, optional field offers to keep a yes for this exact effect for the rest of the
 * session (docs/decisions/0124-remembered-answers.md) or always in this project, written to
 * `.effectgate/allow.yaml` (0134). It widens nothing: the same effect key that binds a grant
 * binds the memory, and a no is never remembered.
 */
import { isRecord } from "../wire/jsonrpc.js";

/** How long a yes lasts beyond this call. */
export type Remember = "session" | "project";

/** The choices of the `remember` field; the first (this call only) is the default. */
const REMEMBER_CHOICES = ["this call", "this session", "always in this project"] as const;

/** The `params` of the question: an `elicitation/create` in form mode. */
export function approvalForm(message: string): Record<string, unknown> {
  return {
    mode: "form",
    message,
    requestedSchema: {
      type: "object",
      properties: {
        allow: { type: "boolean", title: "Allow this call?", default: false },
        remember: {
          type: "string",
          title: "Allow this exact effect for",
          enum: [...REMEMBER_CHOICES],
          default: REMEMBER_CHOICES[0],
        },
      },
      required: ["allow"],
    },
  };
}

export interface Approval {
  answer: "accept" | "decline" | "cancel";
  /** Why it is not a yes, in a few words; absent for a yes. */
  why?: string;
  /** A yes the user asked to keep for the session or the project (this exact effect only). */
  remember?: Remember;
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
  // Anything but exactly one of the longer choices keeps the yes to this call.
  if (content["remember"] === REMEMBER_CHOICES[1]) return { answer: "accept", remember: "session" };
  if (content["remember"] === REMEMBER_CHOICES[2]) return { answer: "accept", remember: "project" };
  return { answer: "accept" };
}
