import type { Platform } from "../types.js";
import { mayHoldGitName } from "../paths/git-dirs.js";
import { splitPath } from "../paths/prepared.js";

// Paths written by calls that were let through, or by other effects of the call being judged,
// that the disk may not show yet: a client can send several calls before the first is answered,
// and a batch is judged before any member runs. Git's discovery (git-dirs.ts) counts them as
// present, so that HEAD, objects, refs and config written in parallel calls still make a git
// directory. Only the names that model cares about are kept.

/** Folded names that make a written path worth remembering. */
const KEPT = new Set(["head", "objects", "refs", "config", "config.worktree", "commondir", "hooks"]);

/** Prefixes remembered before the memory starts again (docs/policy.md, Limits). */
const MAX_PREFIXES = 50_000;

export class Planted {
  /** How many remembered paths each prefix (a path or a folder above one) stands for. */
  private readonly prefixes = new Map<string, number>();

  constructor(private readonly platform: Platform) {}

  private keys(absolute: string): string[] | undefined {
    // Most written paths hold none of the kept names, and every write of every call comes here
    // twice: one look at the lower-cased string spares splitting them.
    if (!mayHoldGitName(absolute)) return undefined;
    const p = splitPath(absolute, this.platform);
    if (!p.segments.some((s) => KEPT.has(s.toLowerCase()))) return undefined;
    const out: string[] = [];
    for (let k = 1; k <= p.segments.length; k++)
      out.push(`${p.root}\u0000${p.segments.slice(0, k).join("\u0000")}`);
    return out;
  }

  private key(absolute: string): string {
    const p = splitPath(absolute, this.platform);
    return `${p.root}\u0000${p.segments.join("\u0000")}`;
  }

  /** Remember a written path (absolute, canonical) and every folder above it. */
  add(absolute: string): void {
    const keys = this.keys(absolute);
    if (keys === undefined) return;
    if (this.prefixes.size > MAX_PREFIXES) this.prefixes.clear();
    for (const k of keys) this.prefixes.set(k, (this.prefixes.get(k) ?? 0) + 1);
  }

  /**
   * Whether `absolute` or a path below it was remembered, not counting the paths in `besides`
   * (the write being judged, which must not count as already there).
   */
  has(absolute: string, besides: readonly string[] = []): boolean {
    if (this.prefixes.size === 0) return false;
    const key = this.key(absolute);
    const count = this.prefixes.get(key) ?? 0;
    if (count === 0) return false;
    let own = 0;
    for (const b of new Set(besides)) if (this.keys(b)?.includes(key) === true) own += 1;
    return count > own;
  }
}
