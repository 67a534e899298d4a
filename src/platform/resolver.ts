import { lstatSync, readdirSync, readlinkSync, realpathSync, statSync } from "node:fs";
import { basename, dirname, isAbsolute, join, parse, resolve, sep } from "node:path";
import type { PathResolver } from "../core/paths/api.js";
import { longPathName, mayHaveShortNames } from "./windows-longpath.js";

// The production PathResolver: what a path really names on this machine, including paths that do
// not exist yet (a write creates them) and dangling links (a write through one creates the target).

/** Linux's own limit on links followed in one lookup. */
const MAX_HOPS = 40;

export interface FsResolverOptions {
  /** How long an answer may be reused; the file system can change under us, so keep it short. */
  ttlMs?: number;
  /** Clock, for tests. */
  now?: () => number;
  /** Entries kept before the cache is dropped wholesale. */
  maxEntries?: number;
}

function stripWin32Namespace(p: string): string {
  if (p.startsWith("\\\\?\\UNC\\")) return "\\\\" + p.slice(8);
  if (p.startsWith("\\\\?\\")) return p.slice(4);
  return p;
}

function realExisting(p: string): string {
  let real = realpathSync.native(p);
  if (process.platform === "win32") {
    real = stripWin32Namespace(real);
    if (mayHaveShortNames(real)) real = longPathName(real) ?? real;
  }
  return real;
}

function isLink(p: string): boolean {
  try {
    return lstatSync(p, { throwIfNoEntry: false })?.isSymbolicLink() === true;
  } catch {
    return false;
  }
}

/**
 * Whether anything (a dangling link included) is at `p`. Asked before realpath, which would fail
 * exactly when this is false, because most paths a call names do not exist yet and a thrown
 * ENOENT costs far more than the answer (the soak spent more time building Errors than asking).
 */
function present(p: string): boolean {
  try {
    return lstatSync(p, { throwIfNoEntry: false }) !== undefined;
  } catch {
    return false; // ENOTDIR, EACCES: realpath fails on these as well
  }
}

/** Real path over the longest existing prefix; a dangling link in the way is followed to its target. */
function resolveFrom(absolute: string, hops: number): string | undefined {
  if (hops > MAX_HOPS) return undefined; // a link loop: nothing sensible to say
  if (present(absolute))
    try {
      return realExisting(absolute);
    } catch {
      // A dangling link or a loop: walk up until something exists.
    }
  const tail: string[] = [];
  let head = absolute;
  let realHead: string | undefined;
  while (realHead === undefined) {
    const parent = dirname(head);
    if (parent === head) return undefined; // not even the root resolves
    tail.unshift(basename(head));
    head = parent;
    if (!present(head)) continue;
    try {
      realHead = realExisting(head);
    } catch {
      // keep walking
    }
  }
  const first = join(realHead, tail[0] as string);
  if (isLink(first)) {
    let target: string;
    try {
      target = readlinkSync(first);
    } catch {
      return join(realHead, ...tail);
    }
    const next = isAbsolute(target) ? target : resolve(realHead, target);
    return resolveFrom(join(next, ...tail.slice(1)), hops + 1);
  }
  return join(realHead, ...tail);
}

/** A regular file with a link count above 1: another name (a hard link) shares its contents. */
function sharesContents(absolute: string): boolean {
  try {
    const st = statSync(absolute, { throwIfNoEntry: false });
    return st !== undefined && st.isFile() && st.nlink > 1;
  } catch {
    return false; // missing (a write creates it with one name) or unreadable metadata
  }
}

/** The device and inode of what `absolute` names (links followed), or undefined when missing. */
export function fileIdentity(absolute: string): string | undefined {
  try {
    const st = statSync(absolute, { bigint: true, throwIfNoEntry: false });
    return st === undefined ? undefined : `${st.dev}:${st.ino}`;
  } catch {
    return undefined;
  }
}

/** An existing folder, links followed: the kernel can take `..` from it. Asked afresh each time. */
function isExistingFolder(absolute: string): boolean {
  try {
    return statSync(absolute, { throwIfNoEntry: false })?.isDirectory() === true;
  } catch {
    return false;
  }
}

/**
 * The reference filesystem server, when realpath says ENOENT, walks the path from its allowed
 * folder and replaces each name by the one entry of its folder with the same NFC form (two or
 * more: it refuses; none: the rest is created as written). The same walk from the root, so the
 * judge sees the file that server opens. Undefined when no name was replaced. Asked afresh each
 * time, and only for paths with a name outside ASCII.
 */
export function unicodeEquivalentPath(absolute: string): string | undefined {
  const root = parse(absolute).root;
  const names = absolute
    .slice(root.length)
    .split(sep)
    .filter((n) => n !== "");
  let current = root;
  let changed = false;
  let i = 0;
  for (; i < names.length; i++) {
    const name = names[i] as string;
    const exact = join(current, name);
    if (present(exact)) {
      current = exact;
      continue;
    }
    let entries: string[];
    try {
      entries = readdirSync(current);
    } catch {
      break; // not a folder, or unreadable: the rest is as written
    }
    const wanted = name.normalize("NFC");
    const same = entries.filter((e) => e.normalize("NFC") === wanted);
    if (same.length !== 1) break; // none: created as written; several: the server refuses
    current = join(current, same[0] as string);
    changed = true;
  }
  return changed ? join(current, ...names.slice(i)) : undefined;
}

/** Short-lived answers per path, dropped wholesale when the table is full or told to forget. */
function memo<T>(compute: (key: string) => T, ttl: number, now: () => number, maxEntries: number) {
  const cache = new Map<string, { at: number; value: T }>();
  /** The answer and when it was found. */
  const entry = (key: string, t: number): { at: number; value: T } => {
    const hit = cache.get(key);
    if (hit && t - hit.at < ttl) return hit;
    const made = { at: t, value: compute(key) };
    if (cache.size >= maxEntries) cache.clear();
    cache.set(key, made);
    return made;
  };
  const lookup = (key: string): T => entry(key, now()).value;
  return { lookup, entry, forget: () => cache.clear() };
}

/**
 * PathResolver.movedAnchors over the anchors' own answers, kept per list (a policy's lists are
 * the same arrays for its life) until the oldest answer it used expires: no answer is used
 * longer than anchorRealpath would use it. Each decision asked every anchor of the lists it
 * met, about 170 lookups and clock reads at the default policy; now it is one per list.
 */
function movedAnchorLists(
  anchorEntry: (key: string, t: number) => { at: number; value: string | undefined },
  ttl: number,
  now: () => number,
) {
  const lists = new WeakMap<readonly string[], { at: number; value: readonly number[] }>();
  return (anchors: readonly string[]): readonly number[] => {
    const t = now();
    const hit = lists.get(anchors);
    if (hit && t - hit.at < ttl) return hit.value;
    let oldest = t;
    const value: number[] = [];
    anchors.forEach((anchor, j) => {
      const e = anchorEntry(anchor, t);
      if (e.at < oldest) oldest = e.at;
      if (e.value !== undefined && e.value !== anchor) value.push(j);
    });
    lists.set(anchors, { at: oldest, value });
    return value;
  };
}

/** The production resolver, and a way to drop what it remembers once the file system changed. */
export interface FsResolver extends PathResolver {
  /**
   * Forget every cached answer. The relay calls it when a call it let through may have changed
   * the file system (a write or a command, forwarded and when answered): otherwise a link moved
   * into place by that call would be judged by the second-old answer (docs/decisions/0012).
   */
  forget(): void;
}

export function createFsResolver(options: FsResolverOptions = {}): FsResolver {
  const ttl = options.ttlMs ?? 1000;
  const now = options.now ?? Date.now;
  const maxEntries = options.maxEntries ?? 1024;
  const realpath = memo((p) => resolveFrom(p, 0), ttl, now, maxEntries);
  // A policy's anchors, kept for the TTL even when told to forget (PathResolver.anchorRealpath):
  // without this, every write or command let through made the next decision ask the disk about
  // each of the default policy's forty-odd protected folders again (2-3 ms a call).
  const anchorRealpath = memo((p) => resolveFrom(p, 0), ttl, now, maxEntries);
  const hasOtherNames = memo(sharesContents, ttl, now, maxEntries);
  const exists = memo(present, ttl, now, maxEntries);
  const fileId = memo(fileIdentity, ttl, now, maxEntries);
  return {
    realpath: realpath.lookup,
    anchorRealpath: anchorRealpath.lookup,
    movedAnchors: movedAnchorLists(anchorRealpath.entry, ttl, now),
    hasOtherNames: hasOtherNames.lookup,
    isFolder: isExistingFolder,
    unicodeEquivalent: unicodeEquivalentPath,
    exists: exists.lookup,
    fileId: fileId.lookup,
    forget() {
      realpath.forget();
      hasOtherNames.forget();
      exists.forget();
      fileId.forget();
    },
  };
}
