// The records of a batch's judged calls are kept until the batch's fate is known, then written
// together (decision 0066): a batch is refused whole when one call in it is refused.
import type { Member } from "./held-members.js";

/** A batch member's records, kept until the batch's fate is known. */
export interface MemberRecords {
  events: Array<[string, Record<string, unknown>]>;
  /** Its verdict is deny: enforce refuses it (at observe nothing is refused). */
  wouldRefuse: boolean;
}

/**
 * The records to write for a batch's calls, in order. When a call in it is refused (at observe:
 * would be refused at enforce), every other call's decision says so: outcome `refuse` (at
 * observe the outcome stays what happened, `forward`) and `batchRefusedBy`, the refused call's
 * id; allowed calls get a record too. Otherwise only allows with effects are recorded, as
 * outside a batch (decision 0094).
 */
export function batchRecords(
  records: ReadonlyMap<Member, MemberRecords>,
  refused: Member | undefined,
  refusedText: ReadonlyMap<Member, string>,
  passThrough: boolean,
): Array<[string, Record<string, unknown>]> {
  const out: Array<[string, Record<string, unknown>]> = [];
  let by = refused;
  if (passThrough) for (const [m, r] of records) if (!by && r.wouldRefuse) by = m;
  for (const [member, r] of records) {
    const ownRefusal = member === by || refusedText.has(member) || (passThrough && r.wouldRefuse);
    for (const [ev, data] of r.events) {
      if (ev !== "decision") out.push([ev, data]);
      else if (by !== undefined && !ownRefusal)
        out.push([ev, { ...data, ...(passThrough ? {} : { outcome: "refuse" }), batchRefusedBy: by.id }]);
      else if (data["verdict"] !== "allow" || hasEffects(data)) out.push([ev, data]);
    }
  }
  return out;
}

function hasEffects(data: Record<string, unknown>): boolean {
  return Array.isArray(data["effects"]) && data["effects"].length > 0;
}
