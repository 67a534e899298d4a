// Secrets a call carries out (egress.secrets), judged as items of the call's decision.
import { BUDGET } from "../effects/budget.js";
import { carriedSecrets } from "../secrets/carried.js";
import type { Effect } from "../types.js";
import type { DecideContext } from "./decide.js";
import type { JudgedEffect } from "./judge-effect.js";
import { judgeCarried } from "./judge-egress.js";
import type { RequestEffects } from "./request-effects.js";

/** The effect secrets ride on: the call's first send, else its first fetch, else its own server. */
function carrierOf(subject: string, effects: readonly Effect[]): Effect {
  return (
    effects.find((e) => e.kind === "egress") ??
    effects.find((e) => e.kind === "url") ?? {
      operation: "send",
      kind: "egress",
      at: "arguments",
      spelled: subject,
      canonical: "its server",
      destination: { service: "its server" },
    }
  );
}

/**
 * Whether a string under `value` (or a member name) is longer than the extraction budget. The
 * relay reads no string of a big frame past that (it keeps one character more, decisions 0052 and
 * 0144), so a secret after the cut would go unseen: such arguments cannot be called clean.
 */
function holdsUnreadString(value: unknown): boolean {
  const stack: unknown[] = [value];
  while (stack.length > 0) {
    const x = stack.pop();
    if (typeof x === "string") {
      if (x.length > BUDGET.maxChars) return true;
    } else if (Array.isArray(x)) {
      for (const y of x) stack.push(y);
    } else if (x !== null && typeof x === "object") {
      for (const [k, y] of Object.entries(x)) {
        if (k.length > BUDGET.maxChars) return true;
        stack.push(y);
      }
    }
  }
  return false;
}

/**
 * The items for the secrets a call carries out (egress.secrets): looked for when the call sends
 * or fetches, and for a tool effectgate does not know (its server receives every argument).
 */
export function carriedItems(
  cx: DecideContext,
  found: Extract<RequestEffects, { effects: Effect[] }>,
  method: string,
  judged: readonly Effect[],
): JudgedEffect[] {
  if (method !== "tools/call" || found.args === undefined) return [];
  const sends = found.effects.some((e) => e.kind === "egress" || e.kind === "url");
  if (!sends && found.opaque !== true) return [];
  const scan = carriedSecrets(found.args, cx.secretFiles);
  // The judged form of the send (it carries the destination that decided), for the record.
  const carrier = carrierOf(found.subject, judged);
  const ecx = { tool: found.subject, policy: cx.policy, tainted: cx.tainted };
  const items = scan.found.map((c) => judgeCarried(carrier, c, ecx));
  if (scan.capped !== undefined && cx.policy.egress.secrets !== "allow") {
    const why = `${found.subject} would send data effectgate cannot read for secrets: ${scan.capped}`;
    items.push({ effect: carrier, verdict: "deny", rule: "unjudgeable", reason: why, unjudgeable: why });
  }
  if (cx.policy.egress.secrets !== "allow" && holdsUnreadString(found.args)) {
    const why = `too large to judge: ${found.subject} would send a string of more than ${BUDGET.maxChars} characters, which effectgate does not read whole for secrets`;
    items.push({ effect: carrier, verdict: "deny", rule: "unjudgeable", reason: why, unjudgeable: why });
  }
  return items;
}
