import type { PathResolver } from "./api.js";

/**
 * A resolver that answers for one call's judgement at a time: the same questions, with which
 * anchors of a pattern list moved (PathResolver.movedAnchors) worked out once per list for the
 * call. A decision matches several path forms against the same lists of up to 120 anchored
 * patterns; without this each match asked every anchor before its answer again (173 questions a
 * decision at the default policy, decision 0146). The answers are not kept in a map of anchors:
 * that cost more than the questions it saved. `nextCall` drops them: the disk may change between
 * calls, as canonicaliseOnce says (judge/canonical-memo.ts). One per session, made once, so that
 * a call pays for no new objects.
 */
export function anchorSnapshots(resolver: PathResolver): { resolver: PathResolver; nextCall(): void } {
  const moved = new Map<readonly string[], readonly number[]>();
  const snapshot: PathResolver = {
    realpath: resolver.realpath.bind(resolver),
    movedAnchors(anchors: readonly string[]): readonly number[] {
      let found = moved.get(anchors);
      if (found === undefined) {
        found = resolver.movedAnchors ? resolver.movedAnchors(anchors) : movedOf(anchors, resolver);
        moved.set(anchors, found);
      }
      return found;
    },
  };
  // The optional questions stay absent when the resolver lacks them: callers read absence as
  // "cannot tell" (no hard links seen, every folder taken to exist), not as "no".
  const { anchorRealpath, hasOtherNames, isFolder, unicodeEquivalent, exists, fileId } = resolver;
  if (anchorRealpath) snapshot.anchorRealpath = anchorRealpath.bind(resolver);
  if (hasOtherNames) snapshot.hasOtherNames = hasOtherNames.bind(resolver);
  if (isFolder) snapshot.isFolder = isFolder.bind(resolver);
  if (unicodeEquivalent) snapshot.unicodeEquivalent = unicodeEquivalent.bind(resolver);
  if (exists) snapshot.exists = exists.bind(resolver);
  if (fileId) snapshot.fileId = fileId.bind(resolver);
  return { resolver: snapshot, nextCall: () => moved.clear() };
}

/** The positions in `anchors` whose real path is known and differs from the anchor, in order. */
function movedOf(anchors: readonly string[], resolver: PathResolver): number[] {
  const out: number[] = [];
  for (let j = 0; j < anchors.length; j++) {
    const anchor = anchors[j] as string;
    const real = resolver.anchorRealpath ? resolver.anchorRealpath(anchor) : resolver.realpath(anchor);
    if (real !== undefined && real !== anchor) out.push(j);
  }
  return out;
}
