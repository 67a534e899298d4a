import type { LockEntry } from "./lock.js";
import { pinItem, PROMPT_KEYS, RESOURCE_KEYS, TEMPLATE_KEYS } from "./pin.js";
import type { Finding } from "./severity.js";

/**
 * The listings `approve` pins besides tools: the answer member that holds the items, where the
 * lock keeps them, the keys that are hashed and the field that names an item.
 */
interface PinnedListing {
  member: "prompts" | "resourceTemplates" | "resources";
  keys: readonly string[];
  what: string;
  keyField: string;
}

const LISTINGS = new Map<string, PinnedListing>([
  ["prompts/list", { member: "prompts", keys: PROMPT_KEYS, what: "prompt", keyField: "name" }],
  [
    "resources/templates/list",
    { member: "resourceTemplates", keys: TEMPLATE_KEYS, what: "resource template", keyField: "name" },
  ],
  ["resources/list", { member: "resources", keys: RESOURCE_KEYS, what: "resource", keyField: "uri" }],
]);

/** The lock member a listing method is pinned in, or undefined for a method `approve` does not pin. */
export const pinnedListing = (method: string): PinnedListing["member"] | undefined =>
  LISTINGS.get(method)?.member;

/**
 * How one page of a prompts, resource-templates or resources listing differs from the lock, as
 * `approve --diff` says it. Undefined when the method is not such a listing or the lock never saw
 * that listing (the server did not offer it when it was approved). "Removed" is said only of a
 * whole listing, since one page cannot show what the others hold.
 */
export function listingDrift(
  approved: LockEntry,
  method: string,
  items: readonly unknown[],
  whole: boolean,
): Finding[] | undefined {
  const listing = LISTINGS.get(method);
  if (listing === undefined) return undefined;
  const pinned = approved[listing.member];
  if (pinned === undefined) return undefined;
  const out: Finding[] = [];
  diffItems(pinned, items, listing.keys, listing.what, out, listing.keyField, whole);
  return out;
}

/** Every difference between approved items and a live listing, pushed onto `out`. */
export function diffItems(
  approved: Record<string, { hash: string; description?: unknown }> | undefined,
  live: readonly unknown[] | undefined,
  keys: readonly string[],
  what: string,
  out: Finding[],
  keyField = "name",
  whole = true,
): void {
  const then = new Map(Object.entries(approved ?? {}));
  const seen = new Set<string>();
  for (const item of live ?? []) {
    const r = pinItem(item, keys, keyField);
    if (!r.ok) {
      out.push({
        text: `${what} "${r.name || "(unnamed)"}" cannot be checked: ${r.error}`,
        severity: "high",
      });
      continue;
    }
    seen.add(r.name);
    const old = then.get(r.name);
    if (old === undefined)
      out.push({
        text: `new ${what} "${r.name}"`,
        severity: "medium",
        now: typeof r.fields["description"] === "string" ? r.fields["description"] : null,
      });
    else if (old.hash !== r.hash) {
      const was = typeof old.description === "string" ? old.description : null;
      const now = typeof r.fields["description"] === "string" ? r.fields["description"] : null;
      out.push(
        was !== now
          ? { text: `${what} "${r.name}": description changed`, severity: "high", was, now }
          : { text: `${what} "${r.name}" changed`, severity: "medium" },
      );
    }
  }
  // A page of a longer listing does not show what the other pages hold.
  if (!whole) return;
  for (const name of [...then.keys()].sort())
    if (!seen.has(name)) out.push({ text: `${what} "${name}" removed`, severity: "low" });
}
