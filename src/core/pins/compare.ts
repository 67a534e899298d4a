import { canonicalJson } from "../json/jcs.js";
import { pinTool, type ToolPin } from "./pin.js";
import { diffSchema } from "./schema-diff.js";
import { maxSeverity, type Finding, type Severity } from "./severity.js";

export interface ToolChange {
  tool: string;
  kind: "added" | "removed" | "changed" | "unverifiable";
  severity: Severity;
  sentences: string[];
}

/** A ToolChange that also keeps each sentence's own severity and the old/new texts. */
export interface DetailedToolChange extends ToolChange {
  findings: Finding[];
}

const same = (a: unknown, b: unknown): boolean => canonicalJson(a) === canonicalJson(b);

/** What differs between an approved pin and the live one, one finding per difference. */
export function diffTool(approved: ToolPin, live: ToolPin): Finding[] {
  const out: Finding[] = [];
  if (approved.description !== live.description) {
    // The description is prompt text the model obeys: the classic rug pull.
    out.push({
      text: "description changed",
      severity: "high",
      was: approved.description,
      now: live.description,
    });
  }
  if (approved.title !== live.title)
    out.push({ text: "title changed", severity: "medium", was: approved.title, now: live.title });
  // Both diffs return nothing for equal inputs, so they need no guard.
  out.push(...diffSchema(approved.inputSchema, live.inputSchema, "schema"));
  if (!same(approved.outputSchema, live.outputSchema)) {
    if (approved.outputSchema === null) out.push({ text: "output schema added", severity: "low" });
    else if (live.outputSchema === null) out.push({ text: "output schema removed", severity: "medium" });
    else out.push(...diffSchema(approved.outputSchema, live.outputSchema, "output schema"));
  }
  out.push(...diffMembers(approved.annotations, live.annotations, "annotation"));
  // What a client reads beside the tool (an MCP App's UI resource, vendor hints) is pinned too.
  out.push(...diffMembers(approved.meta, live.meta, "_meta"));
  if (out.length === 0 && approved.hash !== live.hash)
    out.push({ text: "definition changed", severity: "medium" });
  return out;
}

function diffMembers(a: unknown, b: unknown, what: string): Finding[] {
  const objA = (typeof a === "object" && a !== null ? a : {}) as Record<string, unknown>;
  const objB = (typeof b === "object" && b !== null ? b : {}) as Record<string, unknown>;
  const out: Finding[] = [];
  for (const k of [...new Set([...Object.keys(objA), ...Object.keys(objB)])].sort()) {
    if (same(objA[k] ?? null, objB[k] ?? null)) continue;
    // Hints are untrusted either way; a tool newly claiming to be harmless still deserves a look.
    out.push({
      text: `${what} ${k} changed from ${JSON.stringify(objA[k] ?? null)} to ${JSON.stringify(objB[k] ?? null)}`,
      severity: "medium",
    });
  }
  return out;
}

function change(tool: string, kind: ToolChange["kind"], findings: Finding[]): DetailedToolChange {
  return {
    tool,
    kind,
    severity: maxSeverity(findings),
    sentences: findings.map((f) => `tool "${tool}": ${f.text}`),
    findings,
  };
}

/**
 * Live tools (one list, possibly several pages concatenated) against the approved set.
 * Unpinnable tools and names listed twice with different definitions are "unverifiable".
 */
export function compareToolsDetailed(
  approved: ReadonlyMap<string, ToolPin>,
  live: readonly unknown[],
  opts: { removed?: boolean } = {},
): DetailedToolChange[] {
  const out: DetailedToolChange[] = [];
  const seen = new Map<string, string>();
  const reported = new Set<string>();
  for (const tool of live) {
    const r = pinTool(tool);
    if (!r.ok) {
      out.push(
        change(r.name || "(unnamed)", "unverifiable", [
          { text: `cannot be checked: ${r.error}`, severity: "high" },
        ]),
      );
      reported.add(r.name);
      continue;
    }
    const { pin } = r;
    const earlier = seen.get(pin.name);
    if (earlier !== undefined) {
      if (earlier !== pin.hash && !reported.has(pin.name)) {
        out.push(
          change(pin.name, "unverifiable", [
            { text: "listed twice with different definitions", severity: "high" },
          ]),
        );
        reported.add(pin.name);
      }
      continue;
    }
    seen.set(pin.name, pin.hash);
    const old = approved.get(pin.name);
    if (old === undefined) {
      out.push(
        change(pin.name, "added", [
          { text: "new tool, not approved", severity: "high", now: pin.description },
        ]),
      );
      out[out.length - 1]!.sentences = [`new tool "${pin.name}"`];
    } else if (old.hash !== pin.hash) {
      out.push(change(pin.name, "changed", diffTool(old, pin)));
    }
  }
  if (opts.removed !== false) {
    for (const name of [...approved.keys()].sort()) {
      if (!seen.has(name) && !reported.has(name)) {
        const c = change(name, "removed", [{ text: "removed", severity: "low" }]);
        c.sentences = [`tool "${name}" removed`];
        out.push(c);
      }
    }
  }
  return out;
}

export function compareTools(approved: ReadonlyMap<string, ToolPin>, live: readonly unknown[]): ToolChange[] {
  return compareToolsDetailed(approved, live).map(({ tool, kind, severity, sentences }) => ({
    tool,
    kind,
    severity,
    sentences,
  }));
}
