// The transcript lines of one logged event (a decision, a refusal, a question, taint, a pin
// check, a gap in the log). What an event changes in the session (the handshake in the summary,
// which calls were refused) is left to the caller through EventHooks.
import type { JsonRpcId } from "../types.js";
import type { EventLike } from "./entries.js";
import { decisionId, refusedCalls, REFUSING_OUTCOMES } from "./logged-frames.js";
import { effectsOf } from "./effect-text.js";
import type { Marker, ReplayItem } from "./replay-item.js";

export interface EventHooks {
  handshake(data: Record<string, unknown>): void;
  /** A call the relay answered itself; false when a line already said so. */
  refusedCall(
    id: JsonRpcId | undefined,
    by: "decision" | "event",
    method: string | undefined,
    tool: string | undefined,
  ): boolean;
  /** A decision named the effects of the call with this id (allowed calls too). */
  judged(id: JsonRpcId | undefined, effects: { shown: string[]; more: number }): void;
  /** A refusal's answer text, for the line that already said the call was refused. */
  remedy(id: JsonRpcId | undefined, text: string): void;
}

export function eventItems(line: number, at: number | null, r: EventLike, hooks: EventHooks): ReplayItem[] {
  const d = r.data;
  const items: ReplayItem[] = [];
  const str = (k: string): string | undefined => (typeof d[k] === "string" ? (d[k] as string) : undefined);
  const id = typeof d["id"] === "string" || typeof d["id"] === "number" ? d["id"] : undefined;
  switch (r.ev) {
    case "handshake":
      hooks.handshake(d);
      items.push({
        line,
        offsetMs: at,
        kind: "event",
        method: "handshake",
        detail: `protocol ${str("protocolVersion") ?? "?"}`,
      });
      return items;
    case "decision": {
      const outcome = str("outcome");
      const verdict = str("verdict") ?? "?";
      hooks.judged(decisionId(d["id"]), effectsOf(d));
      if (verdict === "allow" && outcome === "forward") return items;
      const refusing = outcome !== undefined && REFUSING_OUTCOMES.has(outcome);
      // A question the user answered no (or could not be asked) is a refusal all the same.
      const grant = projectGrantOf(d["grant"]);
      const marker: Marker = refusing
        ? "REFUSED"
        : outcome === "ask" || outcome === "ask-accepted"
          ? "ASK"
          : outcome === "forward-noted" || grant !== undefined
            ? "NOTED"
            : "OBSERVED";
      if (refusing) {
        const tool = str("tool") !== str("method") ? str("tool") : undefined;
        hooks.refusedCall(decisionId(d["id"]), "decision", str("method"), tool);
      }
      const rule = str("rule");
      const extra = [
        d["tainted"] === true ? "tainted" : "",
        str("unjudgeable") ? `unjudgeable: ${str("unjudgeable")}` : "",
        grant ?? "",
      ].filter(Boolean);
      items.push({
        line,
        offsetMs: at,
        kind: "event",
        marker,
        method: str("method") ?? "decision",
        ...(id !== undefined ? { id } : {}),
        ...(str("tool") !== undefined ? { tool: str("tool") as string } : {}),
        detail: `${verdict}${rule ? ` by ${rule}` : ""}${extra.length ? ` (${extra.join(", ")})` : ""}: ${str("reason") ?? ""}`,
        verdict,
        ...(rule !== undefined ? { rule } : {}),
        ...(refusing ? { refused: true as const } : {}),
      });
      return items;
    }
    case "refusal":
    case "refused":
      for (const call of refusedCalls(d)) {
        // A decision event may have said it already (the policy gate logs one); one line is enough.
        if (!hooks.refusedCall(call.id, "event", call.method, undefined)) {
          hooks.remedy(call.id, call.text);
          continue;
        }
        items.push({
          refused: true,
          remedy: call.text,
          line,
          offsetMs: at,
          kind: "event",
          marker: "REFUSED",
          ...(call.method !== undefined ? { method: call.method } : {}),
          ...(call.id !== undefined ? { id: call.id } : {}),
          detail: call.text,
        });
      }
      return items;
    case "ask":
      items.push({
        line,
        offsetMs: at,
        kind: "event",
        marker: "ASK",
        ...(id !== undefined ? { id } : {}),
        detail: describeFacts(d),
      });
      return items;
    case "taint":
      items.push({
        line,
        offsetMs: at,
        kind: "event",
        marker: "TAINT",
        detail: `by ${str("by") ?? "?"} (${str("reason") ?? "?"}): ${str("why") ?? ""}`,
      });
      return items;
    case "pin":
      items.push({
        line,
        offsetMs: at,
        kind: "event",
        marker: "PIN",
        ...(str("tool") ? { tool: str("tool") as string } : {}),
        detail: `${str("kind") ?? "?"} ${str("severity") ?? ""}`.trim(),
      });
      return items;
    case "log-gap":
      items.push({
        line,
        offsetMs: at,
        kind: "event",
        marker: "GAP",
        detail: `${String(d["lost"] ?? "?")} records lost: ${str("error") ?? ""}`,
      });
      return items;
    default:
      items.push({ line, offsetMs: at, kind: "event", method: r.ev, detail: describeFacts(d) });
      return items;
  }
}

function describeFacts(d: Record<string, unknown>): string {
  return Object.keys(d)
    .sort()
    .map((k) => `${k}=${typeof d[k] === "string" ? (d[k] as string) : JSON.stringify(d[k])}`)
    .join(" ");
}

/** `allowed always in this project by FILE:LINE` for a call a project grant let through (0134). */
function projectGrantOf(grant: unknown): string | undefined {
  if (grant === null || typeof grant !== "object") return undefined;
  const g = grant as Record<string, unknown>;
  if (g["scope"] !== "project" || typeof g["file"] !== "string" || typeof g["line"] !== "number")
    return undefined;
  return `allowed always in this project by ${g["file"]}:${g["line"]}`;
}
