// Putting a gate's question to the user: a grant, the client's chat, a desktop dialog (decision
// 0126), or out of band (decision 0105).
import type { AskAnswer, AskHow, AskReply, HeldRequest } from "../../core/gate/gate.js";
import { effectEntries, effectKey } from "../../core/gate/effect-key.js";
import { idKey } from "../server/correlate.js";
import type { ClientContext } from "./client-context.js";
import { canAskInResult } from "./result-frames.js";

/**
 * Puts a gate's question to the user. A yes kept for the session (decision 0124) or a grant from
 * `effectgate allow` for exactly this effect answers it unasked; else the client is asked in its
 * chat when it can be (elicitation, or in a 2026-07-28 call's result: decision 0123); else in a
 * desktop dialog when the user opted in and one can be shown; else the question waits out of
 * band and the call is refused with its id (decision 0105).
 */
export async function askUser(
  client: ClientContext,
  held: HeldRequest,
  answer: AskAnswer,
): Promise<[AskReply, AskHow?]> {
  const d = client.d;
  const oob = d.outOfBand;
  // Without the judge's effects there is nothing exact to bind a grant to: never one then.
  const key = keyOf(client, held, answer);
  if (key !== undefined && client.sessionYes.has(key)) {
    d.announce(`${held.method} id ${JSON.stringify(held.id)}: allowed for this session by your earlier yes`);
    return ["accept", { channel: "session" }];
  }
  try {
    if (oob && key !== undefined) {
      const grant = (await oob.store()).takeGrant(key);
      if (grant) {
        d.announce(
          `${held.method} id ${JSON.stringify(held.id)}: allowed by \`effectgate allow ${grant.id}\``,
        );
        return ["accept", { channel: "grant", pendingId: grant.id }];
      }
    }
    if (canElicit(client, held)) {
      client.releaseQueueHold(); // the answer must be able to arrive
      const approval = await d.asker.ask(
        answer.question,
        (seconds) =>
          d.announce(
            `nobody answered the question about ${held.method} id ${JSON.stringify(held.id)} within ${seconds} s; refused it`,
          ),
        client.judging.get(idKey(held.id))?.signal,
      );
      if (approval.answer === "accept" && approval.remember === "session") rememberYes(client, held, answer);
      return [approval.answer, { channel: "elicitation", ...(approval.why ? { why: approval.why } : {}) }];
    }
    if (key !== undefined && canAskInResult(client, held)) {
      client.instead.set(idKey(held.id), { question: client.inResult.question(held, answer.question, key) });
      d.announce(
        `${held.method} id ${JSON.stringify(held.id)}: asked in the chat; the client's retry carries the answer`,
      );
      return ["input-required", { channel: "input_required" }];
    }
    if (!oob || key === undefined || !answer.decision || answer.tool === undefined) return ["failed"];
    // Opted in (decision 0126): a desktop dialog, where this machine can show one.
    const desktop = oob.desktop ? await oob.desktop() : undefined;
    const dialog = await desktop?.ask(answer.question, client.judging.get(idKey(held.id))?.signal);
    if (dialog) return dialog;
    const q = (await oob.store()).addPending({
      key,
      server: oob.server,
      method: held.method,
      tool: answer.tool,
      effects: effectEntries(answer.decision.effects),
      rule: answer.decision.rule ?? null,
      reason: answer.decision.reason,
      question: answer.question,
      pid: process.pid,
      cwd: process.cwd(),
    });
    desktop?.announcePending(q.id);
    d.announce(
      `${held.method} id ${JSON.stringify(held.id)} needs your word: run \`effectgate allow ${q.id}\` (\`effectgate pending\` shows it), then retry`,
    );
    return ["pending", { channel: "pending", pendingId: q.id }];
  } catch (err) {
    const why = err instanceof Error ? err.message : String(err);
    d.announce(`could not ask about ${held.method} id ${JSON.stringify(held.id)}: ${why}; refused it`);
    return ["failed", { channel: oob ? "pending" : "elicitation", why }];
  }
}

/** The effect key a grant or a remembered yes is bound to (effect-key.ts), when there is one. */
export function keyOf(client: ClientContext, held: HeldRequest, answer: AskAnswer): string | undefined {
  const oob = client.d.outOfBand;
  if (!oob || !answer.decision || answer.tool === undefined) return undefined;
  return effectKey({
    server: oob.server,
    method: held.method,
    tool: answer.tool,
    effects: answer.decision.effects,
  });
}

/** The user said yes for the session: this exact effect is not asked about again (decision 0124). */
export function rememberYes(client: ClientContext, held: HeldRequest, answer: AskAnswer): void {
  const key = keyOf(client, held, answer);
  if (key === undefined) return;
  client.sessionYes.add(key);
  client.d.log.event("ask-remembered", { id: held.id, for: "session", key });
}

/** Whether this call's question can be put in the client's chat (a legacy elicitation). */
export function canElicit(client: ClientContext, held: HeldRequest): boolean {
  const d = client.d;
  return !d.passThrough && d.facts.era === "legacy" && d.facts.clientCanElicit && !held.modern;
}
