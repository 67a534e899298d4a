import { type RequestEffects, requestEffects } from "../judge/request-effects.js";
import { canonicalHost, hostClass } from "../net/host.js";
import type { CompiledPolicy } from "../policy/api.js";
import type { Effect } from "../types.js";
import type { ScanOptions, TaintEvent } from "../gate/session-judge.js";
import { type Layer, revealLayersCapped } from "./normalise.js";
import { MAX_TEXT, MAX_WINDOWS } from "./scan-budget.js";
import { partialScan, unscannedWhy } from "./scan-extent.js";
import { type SignatureScore, scoreLayers } from "./signatures.js";

/** Characters of revealed (decoded or hidden) text scanned per response, over all windows. */
const MAX_REVEALED_CHARS = 1024 * 1024;

/** How much of a response's string text went into windows, in characters. */
export interface ScanExtent {
  scanned: number;
  /** All string text, at any depth; more than `scanned` when the windows ran out. */
  of: number;
}

/**
 * Calls `visit` with every string in `value`, depth first, in the order JSON.parse built them
 * (array elements by index, object members in key order), however deep they lie.
 */
function walkStrings(value: unknown, visit: (s: string) => void): void {
  // Two parallel stacks (the open containers' elements, and the next index in each) instead of
  // an object per level: the walk runs over every element of answers of millions of items.
  const items: (readonly unknown[])[] = [];
  const next: number[] = [];
  let v: unknown = value;
  for (;;) {
    if (typeof v === "string") visit(v);
    // Arrays by index: Object.values would copy one of millions of elements before reading it.
    else if (Array.isArray(v)) {
      items.push(v);
      next.push(0);
    } else if (v !== null && typeof v === "object") {
      items.push(Object.values(v));
      next.push(0);
    }
    let top = items.length - 1;
    while (top >= 0 && (next[top] as number) >= (items[top] as readonly unknown[]).length) {
      items.pop();
      next.pop();
      top--;
    }
    if (top < 0) return;
    v = (items[top] as readonly unknown[])[(next[top] as number)++];
  }
}

/**
 * Every string in a response's result or error, each followed by a line break, cut into windows of
 * MAX_TEXT characters (and the break after the last piece), at most MAX_WINDOWS of them; and how
 * much of the text they hold. Exported for tests.
 */
export function responseWindows(response: Record<string, unknown>): {
  windows: string[];
  extent: ScanExtent;
} {
  const windows: string[] = [];
  const extent = { scanned: 0, of: 0 };
  // The current window's pieces, joined once it is full: adding to a string piece by piece
  // would build a chain of hundreds of thousands of pieces for an answer of many short strings.
  let current: string[] = [];
  let length = 0;
  const push = (s: string) => {
    extent.of += s.length;
    let rest = s;
    while (rest.length > 0 && windows.length < MAX_WINDOWS) {
      const room = MAX_TEXT - length;
      const piece = rest.slice(0, room);
      extent.scanned += piece.length;
      current.push(piece, "\n");
      length += piece.length + 1;
      rest = rest.slice(room);
      if (length >= MAX_TEXT) {
        windows.push(current.join(""));
        current = [];
        length = 0;
      }
    }
  };
  // Every string at any depth: a walk with a depth limit let text nested deeper than it pass
  // unscanned and unsaid (issue 17, breach 3). Iterative, so that no nesting JSON.parse builds
  // can overflow the stack; depth first and in order, so windows hold the text as it reads.
  // The walk goes on past the last window, counting only, so that a cut is never silent.
  walkStrings(response["result"], push);
  walkStrings(response["error"], push);
  // A full set of windows always ends with an empty `current`: push stops only after a window fills.
  if (length > 0) windows.push(current.join(""));
  return { windows, extent };
}

/** Signature score over a whole response: each rule counted once across all windows. */
export function scoreResponse(
  response: Record<string, unknown>,
): SignatureScore & { extent: ScanExtent; layersLeft: number; revealCapped: number } {
  // Every window's plain text is scanned; revealed layers share one budget across the response,
  // so a response full of encoded blobs cannot multiply the work.
  let revealedChars = 0;
  let layersLeft = 0;
  let revealCapped = 0;
  const { windows, extent } = responseWindows(response);
  const layers = windows.flatMap((w) => {
    const revealed = revealLayersCapped(w);
    if (revealed.capped) revealCapped++;
    // The plain layer always comes first.
    const [plain, ...hidden] = revealed.layers as [Layer, ...Layer[]];
    const kept = [plain];
    for (const [i, l] of hidden.entries()) {
      if (revealedChars + l.text.length > MAX_REVEALED_CHARS) {
        layersLeft += hidden.length - i;
        break;
      }
      revealedChars += l.text.length;
      kept.push(l);
    }
    return kept;
  });
  return { ...scoreLayers(layers), extent, layersLeft, revealCapped };
}

function subjectOf(method: string, params: unknown): string {
  if (params !== null && typeof params === "object") {
    const p = params as Record<string, unknown>;
    if (method === "resources/read" && typeof p["uri"] === "string") return p["uri"];
    if (typeof p["name"] === "string") return p["name"];
  }
  return method;
}

/**
 * What a response does to the session's taint: a source tool or server (by name), a call that
 * fetched a URL (open world), content whose signatures score past the threshold, or text the
 * scan did not read (scan-extent.ts). Runs on results and errors alike: an error page from a
 * fetch is as untrusted as its body.
 */
export function taintFromResponse(
  policy: CompiledPolicy,
  server: string | undefined,
  request: { method: string; params: unknown },
  response: Record<string, unknown>,
  scan: ScanOptions = {},
  effectsOf: (method: string, params: unknown) => RequestEffects = (m, p) => requestEffects(policy, m, p),
): TaintEvent[] {
  const events: TaintEvent[] = [];
  const { method, params } = request;
  const by = subjectOf(method, params);
  if (method === "tools/call" || method === "prompts/get" || method === "resources/read") {
    const name = method === "resources/read" ? method : by;
    const source = policy.taintSource(name, server);
    if (source !== undefined)
      events.push({ by, reason: "source", why: `${by} matches taint source ${source}` });
    const found = effectsOf(method, params);
    const fetched = "effects" in found ? fetchedFrom(policy, found.effects) : undefined;
    if (fetched !== undefined) events.push({ by, reason: "url", why: `${by} fetched ${fetched}` });
  }
  if (policy.signatures) {
    const score = scoreResponse(response);
    const { layersLeft, revealCapped } = score;
    if (score.tainting) {
      const rules = score.hits.map((h) => `${h.rule}${h.hidden ? ` (in ${h.via})` : ""}`).join(", ");
      events.push({ by, reason: "content", why: `content signatures scored ${score.score}: ${rules}` });
    }
    // No cut is silent, and none lets text through unjudged: what the scan did not read is untrusted.
    const partial = partialScan({
      ...score.extent,
      layersLeft,
      revealCapped,
      frameCut: scan.frameCut === true,
    });
    if (partial !== undefined) {
      scan.onPartial?.(partial);
      events.push({ by, reason: "unscanned", why: unscannedWhy(partial) });
    }
  }
  return events;
}

/**
 * What a call fetched from outside the machine, if anything: a URL (of a command: only where a
 * program fetches it, and not from a host class the policy trusts, by default loopback and the
 * private ranges), or content a program fetches from others without a URL (`gh issue view`).
 */
function fetchedFrom(policy: CompiledPolicy, effects: readonly Effect[]): string | undefined {
  for (const e of effects) {
    if (e.kind === "url") {
      if (e.via === undefined) return e.spelled;
      const host = canonicalHost(e.spelled);
      // A word curl cannot read as a URL or host names nothing it fetches from.
      if (host === undefined) continue;
      if (policy.commands.trustedHosts.has(hostClass(host.host))) continue;
      return e.spelled;
    }
    if (
      e.via?.class === "fetch" &&
      !effects.some((u) => u.kind === "url" && u.via?.command === e.via?.command)
    )
      return `content from others (${e.via.command})`;
  }
  return undefined;
}
