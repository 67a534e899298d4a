import type { Platform } from "../types.js";
import type { PathResolver } from "./api.js";
import { splitPath, type PreparedPath } from "./prepared.js";

// effectgate's own files, known by identity (docs/decisions/0068): the paths the running relay
// uses (the policy in force, the lock, EFFECTGATE_HOME, the session log folder, the taint
// folder), whatever they are called. A name pattern (`**/.effectgate/**`) misses a home set to
// another name and a `--policy ./team.yaml`; these are matched as the exact paths, through their
// real paths (a link to them), and for files also by device and inode (a hard link to them).

export interface OwnPath {
  /** What it is, for reasons: `the policy in force (--policy)`. */
  what: string;
  /** Absolute and lexically normalised, in the profile's spelling. */
  path: string;
  /** Its real path, when that differs (the path is a link or below one). */
  real?: string;
  /** A folder protects everything below it; a file only itself. */
  folder: boolean;
  /** PathResolver.fileId of a file when the session started: another name of it gives the same. */
  id?: string;
  /** Reading it is allowed (effectgate's program files hold no secret); writes are still denied. */
  readable?: true;
  /**
   * Only the path itself and what is below it count, never a folder that holds it: the project
   * grant folder sits inside the project, and `chmod -R .` or `find . -delete` over the whole
   * project stays the policy's business, as it was before the folder was guarded (decision 0134).
   */
  notAsHeld?: true;
}

const prepared = new WeakMap<OwnPath, PreparedPath[]>();

function formsOf(own: OwnPath, platform: Platform): PreparedPath[] {
  const hit = prepared.get(own);
  if (hit !== undefined) return hit;
  const forms = [own.path, ...(own.real !== undefined && own.real !== own.path ? [own.real] : [])].map((p) =>
    splitPath(p, platform),
  );
  prepared.set(own, forms);
  return forms;
}

/** `a` has `b`'s root and first `length` names. */
function startsWith(a: PreparedPath, b: PreparedPath, length: number): boolean {
  if (a.root !== b.root || a.segments.length < length) return false;
  for (let i = length - 1; i >= 0; i--) if (a.segments[i] !== b.segments[i]) return false;
  return true;
}

export interface OwnHit {
  own: OwnPath;
  /** `at`: the path is the own file or inside the own folder; `above`: it holds it; `same-file`: another name of it. */
  how: "at" | "above" | "same-file";
}

/**
 * The own path `absolute` (canonical) names by its spelling, or undefined. `holders` (a folder
 * moved, copied or removed as a whole) also counts a folder above an own path: moving it moves
 * the own path too.
 */
export function ownPathAt(
  absolute: string,
  own: readonly OwnPath[],
  platform: Platform,
  holders = false,
): OwnHit | undefined {
  if (own.length === 0) return undefined;
  const p = splitPath(absolute, platform);
  for (const o of own) {
    for (const f of formsOf(o, platform)) {
      const k = f.segments.length;
      if (startsWith(p, f, k) && (o.folder || p.segments.length === k)) return { own: o, how: "at" };
      if (holders && o.notAsHeld !== true && p.segments.length < k && startsWith(f, p, p.segments.length))
        return { own: o, how: "above" };
    }
  }
  return undefined;
}

/** The own file that `absolute` is another name of (the same device and inode), or undefined. */
export function ownFileSame(
  absolute: string,
  own: readonly OwnPath[],
  resolver: PathResolver,
): OwnHit | undefined {
  if (resolver.fileId === undefined || !own.some((o) => o.id !== undefined)) return undefined;
  const id = resolver.fileId(absolute);
  if (id === undefined) return undefined;
  const o = own.find((x) => x.id === id);
  return o === undefined ? undefined : { own: o, how: "same-file" };
}
