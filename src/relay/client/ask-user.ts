// Putting a gate's question to the user: a grant, the client's chat, a desktop dialog (decision
// 0126), or out of band (decision 0105).
import type { AskAnswer, AskHow, AskReply, HeldRequest } from "../../core/gate/gate.js";
import { effectEntries, effectKey } from "../../core/gate/effect-key.js";
import { idKey } from "../server/correlate.js";
import type { ClientContext } from "./client-context.js";
import { canAskInResult } from "./result-frames.js";
import type { Remember } from "../../core/gate/approval-form.js";
import { userName } from "../../platform/home.js";

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
      if (approval.answer === "accept" && approval.remember !== undefined)
        await rememberYes(client, held, answer, approval.remember, "in the chat");
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

/**
 * The user said yes for the session (decision 0124) or always in this project (0134): this
 * exact effect is not asked about again. A project yes is written to `.effectgate/allow.yaml`;
 * if that fails, this call still has its yes and the next one is asked again.
 */
export async function rememberYes(
  client: ClientContext,
  held: HeldRequest,
  answer: AskAnswer,
  remember: Remember,
  how: string,
): Promise<void> {
  const key = keyOf(client, held, answer);
  const oob = client.d.outOfBand;
  if (key === undefined || oob === undefined || answer.decision === undefined || answer.tool === undefined)
    return;
  if (remember === "session" || oob.project === undefined) {
    client.sessionYes.add(key);
    client.d.log.event("ask-remembered", { id: held.id, for: "session", key });
    return;
  }
  try {
    const place = await oob.project.add({
      tool: answer.tool,
      server: oob.server,
      method: held.method,
      effects: effectEntries(answer.decision.effects),
      key,
      granted: new Date().toISOString(),
      by: `${userName()}, ${how}`,
    });
    client.d.log.event("ask-remembered", {
      id: held.id,
      for: "project",
      key,
      file: place.file,
      line: place.line,
    });
    client.d.announce(`kept your yes for this project: ${place.file}:${place.line}`);
  } catch (err) {
    const why = err instanceof Error ? err.message : String(err);
    client.d.log.event("ask-remember-failed", { id: held.id, for: "project", key, error: why });
    client.d.announce(
      `could not keep your yes for this project (${why}); this call is allowed, the next is asked again`,
    );
  }
}

/** Whether this call's question can be put in the client's chat (a legacy elicitation). */
export function canElicit(client: ClientContext, held: HeldRequest): boolean {
  const d = client.d;
  return !d.passThrough && d.facts.era === "legacy" && d.facts.clientCanElicit && !held.modern;
}
