/**
 * Asking the user through the client: a form-mode `elicitation/create` with a single boolean
 * field. Ids are strings with our own prefix, so they cannot collide with the server's (which
 * share the server→client id space as far as the client can tell). The client's answer is
 * consumed here and never reaches the server.
 */
import { isRecord } from "../core/jsonrpc.js";

export type AskAnswer = "accept" | "decline" | "cancel";

export const ASK_ID_PREFIX = "effectgate-ask-";
const ASK_ID_BYTES = Buffer.from(`"${ASK_ID_PREFIX}`);

export class Asker {
  private n = 0;
  private readonly waiting = new Map<string, (a: AskAnswer) => void>();

  constructor(
    /** Writes one line (without terminator) to the client. */
    private readonly send: (line: string) => void,
    private readonly record: (ev: string, data: Record<string, unknown>) => void,
  ) {}

  get pending(): boolean {
    return this.waiting.size > 0;
  }

  ask(message: string): Promise<AskAnswer> {
    const id = `${ASK_ID_PREFIX}${++this.n}`;
    const frame = JSON.stringify({
      jsonrpc: "2.0",
      id,
      method: "elicitation/create",
      params: {
        mode: "form",
        message,
        requestedSchema: {
          type: "object",
          properties: { allow: { type: "boolean", title: "Allow this call?", default: false } },
          required: ["allow"],
        },
      },
    });
    return new Promise((resolve) => {
      this.waiting.set(id, resolve);
      this.record("ask", { id, message });
      this.send(frame);
    });
  }

  /** Cheap test before parsing: could this client frame answer one of our asks? */
  mayAnswer(bytes: Buffer): boolean {
    return this.waiting.size > 0 && bytes.includes(ASK_ID_BYTES);
  }

  /** Consumes the client's answer when `msg` is one; returns whether it was. */
  consume(msg: unknown): boolean {
    if (!isRecord(msg) || typeof msg.id !== "string" || "method" in msg) return false;
    const resolve = this.waiting.get(msg.id);
    if (!resolve) return false;
    this.waiting.delete(msg.id);
    const answer = answerOf(msg);
    this.record("ask-answer", { id: msg.id, answer });
    resolve(answer);
    return true;
  }

  /** The client went away: nobody will answer. */
  cancelAll(): void {
    for (const [id, resolve] of this.waiting) {
      this.record("ask-answer", { id, answer: "cancel", why: "the client closed its side" });
      resolve("cancel");
    }
    this.waiting.clear();
  }
}

function answerOf(msg: Record<string, unknown>): AskAnswer {
  const result = msg.result;
  if (!isRecord(result)) return "cancel"; // an error response: the client could not ask
  if (result.action === "accept") {
    // Accepting the form with the box unticked is still a no.
    return isRecord(result.content) && result.content.allow === true ? "accept" : "decline";
  }
  return result.action === "decline" ? "decline" : "cancel";
}
