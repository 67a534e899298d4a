import { compareToolsDetailed, type DetailedToolChange, type ToolChange } from "./compare.js";
import type { ToolPin } from "./pin.js";

export interface ListPage {
  /** The page answers a `tools/list` without a cursor: a new listing starts. */
  first: boolean;
  /** The page has no `nextCursor`: the listing is complete, so missing tools were removed. */
  last: boolean;
}

/**
 * Pin verdicts for one relay session. Pure: the relay feeds it every `tools/list` page it
 * forwards and asks it about every `tools/call`.
 *
 * A tool once seen changed, new or unverifiable stays refused for the rest of the session,
 * even if a later listing shows the approved text again: the model has already read what the
 * server showed it, and a server that flips back and forth is exactly what pinning is for.
 */
export class PinState {
  private readonly approved: ReadonlyMap<string, ToolPin> | undefined;
  /** Tool name → why calls to it are refused. */
  private readonly flagged = new Map<string, ToolChange>();
  /** Tools of the listing in progress (for duplicates and removals across pages). */
  private pagesInListing: unknown[] = [];
  private listed = false;

  constructor(approved: ReadonlyMap<string, ToolPin> | undefined) {
    this.approved = approved;
  }

  /** Whether a lock entry exists for this server. */
  get hasEntry(): boolean {
    return this.approved !== undefined;
  }

  /** Whether at least one `tools/list` page has been observed. */
  get hasListed(): boolean {
    return this.listed;
  }

  /**
   * One `tools/list` page. Returns what is new about it: changed, new and unverifiable tools on
   * this page, and, on the last page, approved tools missing from the whole listing. Without
   * `page`, the tools are taken as one complete listing.
   */
  observeList(tools: readonly unknown[], page: ListPage = { first: true, last: true }): ToolChange[] {
    return this.observeListDetailed(tools, page).map(({ tool, kind, severity, sentences }) => ({
      tool,
      kind,
      severity,
      sentences,
    }));
  }

  observeListDetailed(
    tools: readonly unknown[],
    page: ListPage = { first: true, last: true },
  ): DetailedToolChange[] {
    this.listed = true;
    if (page.first) this.pagesInListing = [];
    const approved = this.approved ?? new Map<string, ToolPin>();
    // Compare the listing so far, so duplicates across pages are caught, then keep only what
    // this page added to the picture.
    const before = compareToolsDetailed(approved, this.pagesInListing, { removed: false });
    this.pagesInListing = [...this.pagesInListing, ...tools];
    const all = compareToolsDetailed(approved, this.pagesInListing, { removed: page.last });
    // JSON keeps the parts apart whatever characters a tool name or sentence holds.
    const key = (c: ToolChange): string => JSON.stringify([c.kind, c.tool, c.sentences]);
    const old = new Set(before.map(key));
    const fresh = all.filter((c) => !old.has(key(c)));
    for (const c of fresh) {
      if (c.kind === "removed") continue; // a removed tool cannot be called into harm
      if (!this.flagged.has(c.tool)) this.flagged.set(c.tool, c);
    }
    return fresh;
  }

  /** `notifications/tools/list_changed`: the next page without a cursor starts a fresh listing. */
  listChanged(): void {
    this.pagesInListing = [];
  }

  checkCall(tool: string): { ok: true } | { ok: false; reason: string } {
    if (this.approved === undefined)
      return { ok: false, reason: "this server has no entry in the lock, so none of its tools is approved" };
    const flagged = this.flagged.get(tool);
    if (flagged !== undefined) {
      // The sentences without their `tool "x": ` prefix: the reason names the tool once.
      const details = flagged.sentences.map((s) => s.replace(`tool "${tool}": `, "")).join("; ");
      const what =
        flagged.kind === "added"
          ? `tool "${tool}" is not in the lock (it appeared after approval)`
          : flagged.kind === "unverifiable"
            ? `tool "${tool}" cannot be checked against the lock (${details})`
            : `tool "${tool}" changed since it was approved (${details})`;
      return { ok: false, reason: what };
    }
    if (!this.approved.has(tool))
      return {
        ok: false,
        reason: `tool "${tool}" is not in the lock (never approved${this.listed ? " and not listed by the server" : ""})`,
      };
    return { ok: true };
  }
}
