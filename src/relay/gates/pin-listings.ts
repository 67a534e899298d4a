import type { JudgeContext, ObservedResponse } from "../../core/gate/gate.js";
import type { TaintEvent } from "../../core/gate/session-judge.js";
import { foldedValues } from "../../core/json/key-fold.js";
import { escapeForTerminal } from "../../core/pins/escape.js";
import { listingDrift, pinnedListing } from "../../core/pins/listing-drift.js";
import type { LockEntry } from "../../core/pins/lock.js";

const isObj = (v: unknown): v is Record<string, unknown> =>
  typeof v === "object" && v !== null && !Array.isArray(v);

/**
 * Prompts, resource templates and resources at run time. Each page of such a listing is compared
 * with what `approve` pinned. An item that appeared, changed or cannot be checked is text nobody
 * approved, read by the model, so the session takes it as untrusted content (as for a changed
 * tool). There is no call to refuse: the listing itself is relayed unchanged (decision 0027).
 * Undefined for a method that is no such listing.
 */
export function checkListing(
  entry: LockEntry | undefined,
  seen: ObservedResponse,
  ctx: JudgeContext,
  opts: { review: string; rugPull: (event: TaintEvent) => void; said: Set<string> },
): void {
  const method = seen.request.method;
  const member = pinnedListing(method);
  const result = seen.response["result"];
  // Without an entry every call is refused anyway; a listing the lock never saw is not pinned.
  if (member === undefined || entry?.[member] === undefined || !isObj(result)) return;
  const taint = (why: string) => opts.rugPull({ by: `(${method})`, reason: "rug-pull", why });
  if (seen.cut) {
    ctx.record("pin", { kind: "unreadable-list", method, got: "cut" });
    ctx.announce(`pin: a ${method} answer was too large to read whole; it counts as unapproved text`);
    taint(`a ${method} answer was too large to check against the lock`);
    return;
  }
  const params = seen.request.params;
  const first = !(isObj(params) && params["cursor"] !== undefined);
  const last = foldedValues(result, "nextCursor").every((c) => c === undefined || c === null);
  for (const items of foldedValues(result, member)) {
    if (!Array.isArray(items)) continue;
    for (const f of listingDrift(entry, method, items, first && last) ?? []) {
      // A client that lists again sees the same drift: it is said once per session.
      if (opts.said.has(f.text)) continue;
      opts.said.add(f.text);
      ctx.record("pin", { kind: "listing", method, severity: f.severity, sentences: [f.text] });
      const review = f.severity === "low" ? "" : `; review with: ${escapeForTerminal(opts.review)}`;
      ctx.announce(`pin: [${f.severity}] ${escapeForTerminal(f.text)}${review}`);
      if (f.severity !== "low") taint(f.text);
    }
  }
}
