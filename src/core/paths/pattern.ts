import type { Platform } from "../types.js";
import type { CompiledPattern, PathPattern, PathResolver, PlatformProfile } from "./api.js";
import { lexicalPath, refuseText } from "./canonical.js";
import { lookupVar } from "./expand.js";
import { foldName } from "./fold.js";
import { preparePath, splitPath, type PreparedPath } from "./prepared.js";
import {
  compileSegment,
  hasWildcard,
  matchesAnyName,
  segmentMatches,
  type SegmentMatcher,
} from "./segment-glob.js";

// Path pattern forms — few on purpose, so that a reader can predict every match.
//
//   ~/.ssh/**        SUBTREE. An anchored folder followed by `/**`: the folder itself and every
//                    path below it. The anchor is absolute after expansion: `/…`, `~`, `~/…`,
//                    `$HOME/…`, `${VAR}/…`, `C:\…`, `%APPDATA%\…`, `\\server\share\…`, `file:///…`.
//   ~/.bashrc        FILE. An anchored path without wildcards: exactly that path, not its children.
//   **/.env         NAME. `**/` then one or more segments: those segments are the END of the path
//   **/.git/config  (`**/.env` matches `/x/.env`, not `/x/.env/y`). Each segment may use `*`, `?`
//   **/*.sh         and `[…]` within that one segment; `*` never crosses a separator.
//   **/.git/hooks/**  NAME-SUBTREE. The same, ending in `/**`: the segment sequence anywhere in the
//                    path, the folder itself and everything below.
//
// Matching is by whole segments (`/home/u-backup` is not under `/home/u`) and folds names exactly
// as foldName() does for the profile: case on win32 and darwin, NFC on darwin, nothing on linux.
// On win32 `\` and `/` are both separators, in patterns and in paths.
//
// Anchors are expanded with the profile (`~`, set variables) and normalised lexically, once.
// When `test` is given a resolver, an anchored pattern also matches under the REAL path of its
// anchor, asked at each test (so a symlinked `~/.ssh` still guards what it points to).
// An anchor that starts with a variable the profile does not set (`%APPDATA%` on linux) cannot
// name anything here: the pattern compiles but matches nothing, and says why in `inert`.
//
// Refused: empty or blank; `*`, `**`, `**/`, `/**`, `C:\**`, `**/*` and anything else that matches
// every path; relative anchors (`foo/bar`); `~user`; wildcards in an anchor; `**` anywhere but
// the start (`**/…`) or the end (`…/**`); `.`/`..` in a name pattern; a trailing separator.

export type PatternForm = "subtree" | "file" | "name" | "name-subtree";

export interface CompiledPathPattern extends PathPattern {
  form: PatternForm;
  /**
   * Whether some path strictly below the folder `absolute` could match because of the folder's
   * own name or place (see belowNames and belowAnchor): moving a folder there, or removing it,
   * touches what the pattern protects. A name pattern that any folder could hold is never below.
   */
  below(absolute: string, resolver?: PathResolver): boolean;
  /** Set when the pattern can match nothing on this profile, with the reason. */
  inert?: string;
  /** NAME patterns: the folded literal last segment, for the name index; else undefined. */
  lastLiteral?: string;
  /** NAME patterns without lastLiteral: SegmentMatcher.extension of the last segment. */
  lastExtension?: string;
  /** NAME-SUBTREE patterns: the folded literal first segment, for the name index; else undefined. */
  firstLiteral?: string;
  /** SUBTREE and FILE patterns: the anchor, expanded and lexical, for the anchor index. */
  anchor?: string;
  /** SUBTREE and FILE patterns: `test` under the anchor's real path only (the rest of `test`). */
  testReal?(absolute: string, resolver?: PathResolver): boolean;
}

const FORMS =
  "an anchored folder ending in /** (~/.ssh/**), an anchored file without wildcards (~/.bashrc), or **/NAME, **/a/b, **/a/b/** with * ? […] inside one segment";

function reject(why: string): CompiledPattern {
  return { ok: false, expected: `${why} (allowed forms: ${FORMS})` };
}

// A variable reference at the start of an anchor, in any platform's syntax: if it is still there
// after expansion and unset (or not a variable syntax on this platform), the pattern is inert.
const LEADING_VAR = /^(?:\$env:([A-Za-z_]\w*)|\$\{([A-Za-z_]\w*)\}|\$([A-Za-z_]\w*)|%([^%/\\]+)%)/i;

/** The name of the variable an anchor starts with, when that variable cannot be expanded here. */
function unsetLeadingVar(anchor: string, profile: PlatformProfile): string | undefined {
  const m = LEADING_VAR.exec(anchor);
  if (!m) return undefined;
  const name = m.slice(1).find((g) => g !== undefined) as string;
  const foreignSyntax = profile.platform !== "win32" && (m[4] !== undefined || m[1] !== undefined);
  return foreignSyntax || lookupVar(name, profile) === undefined ? name : undefined;
}

const EVERYTHING = "a pattern that does not match every path";

const isSep = (c: string | undefined, platform: Platform) =>
  c === "/" || (platform === "win32" && c === "\\");

export function compilePathPattern(body: string, profile: PlatformProfile): CompiledPattern {
  const text = body.trim();
  if (text === "") return reject("a non-empty pattern");
  const bad = refuseText(text);
  if (bad !== undefined) return reject(`a pattern without NUL or broken UTF-16 (${bad})`);
  if (/^[*/\\]+$/.test(text)) return reject(EVERYTHING);
  if (profile.platform === "win32" && /^[A-Za-z]:[\\/]*(\*\*)?$/.test(text)) return reject(EVERYTHING);
  const slashed = profile.platform === "win32" ? text.replace(/\\/g, "/") : text;
  if (slashed.startsWith("**")) return compileNamePattern(body, slashed, profile.platform);
  return compileAnchored(body, text, slashed, profile);
}

function compileNamePattern(body: string, slashed: string, platform: Platform): CompiledPattern {
  if (!slashed.startsWith("**/")) return reject("**/ at the start of a name pattern");
  // Catch-alls (`**/`, `**/**`, `**/*`, `**/*/**`…) are only `*` and separators: refused above.
  let rest = slashed.slice(3);
  const subtree = rest.endsWith("/**");
  if (subtree) rest = rest.slice(0, -3);
  const raw = rest.split("/");
  if (raw.some((s) => s === "")) return reject("no empty segment or trailing separator in a name pattern");
  if (raw.some((s) => s.includes("**"))) return reject("** only at the start (**/…) or the end (…/**)");
  if (raw.some((s) => s === "." || s === "..")) return reject("names without . or .. segments");
  const matchers: SegmentMatcher[] = [];
  for (const seg of raw) {
    const c = compileSegment(foldName(seg, platform));
    if (!c.ok) return reject(c.expected);
    matchers.push(c.matcher);
  }
  const first = matchers[0] as SegmentMatcher;
  const last = matchers[matchers.length - 1] as SegmentMatcher;
  const k = matchers.length;
  const fixed = raw.map((seg) => !matchesAnyName(seg));
  const anywhere = (absolute: string): boolean => {
    const segs = preparePath(absolute, platform).segments;
    for (let i = 0; i + k <= segs.length; i++) if (sequenceAt(matchers, segs, i)) return true;
    return false;
  };
  const pattern: CompiledPathPattern = subtree
    ? {
        body,
        form: "name-subtree",
        ...(first.literal !== undefined ? { firstLiteral: first.literal } : {}),
        test: anywhere,
        // A folder inside the subtree holds only protected paths.
        below: (absolute) => anywhere(absolute) || belowNames(matchers, fixed, absolute, platform),
      }
    : {
        body,
        form: "name",
        ...(last.literal !== undefined
          ? { lastLiteral: last.literal }
          : last.extension !== undefined
            ? { lastExtension: last.extension }
            : {}),
        test: (absolute) => {
          const segs = preparePath(absolute, platform).segments;
          return segs.length >= k && sequenceAt(matchers, segs, segs.length - k);
        },
        below: (absolute) => belowNames(matchers, fixed, absolute, platform),
      };
  return { ok: true, pattern };
}

// A name pattern `**/s1/…/sk` can match below the folder D when its sequence can START in D's
// last j names (1 <= j < k) and go on below D: `**/.git/hooks/**` below `/x/repo/.git`,
// `**/.git/config` below `/x/.git`. j = 0 (the whole sequence below D) is left out on purpose:
// any folder can hold `.env` or `.git/hooks`, so that would make every move a match. The names
// that overlap D must include one that is not a bare `*`, for the same reason.
function belowNames(
  matchers: readonly SegmentMatcher[],
  fixed: readonly boolean[],
  absolute: string,
  platform: Platform,
): boolean {
  const segs = preparePath(absolute, platform).segments;
  for (let j = Math.min(matchers.length - 1, segs.length); j >= 1; j--) {
    if (!fixed.slice(0, j).some(Boolean)) continue;
    const at = segs.length - j;
    let ok = true;
    for (let i = 0; i < j && ok; i++)
      ok = segmentMatches(matchers[i] as SegmentMatcher, segs[at + i] as string);
    if (ok) return true;
  }
  return false;
}

function sequenceAt(matchers: readonly SegmentMatcher[], segs: readonly string[], at: number): boolean {
  for (let j = matchers.length - 1; j >= 0; j--)
    if (!segmentMatches(matchers[j] as SegmentMatcher, segs[at + j] as string)) return false;
  return true;
}

function compileAnchored(
  body: string,
  text: string,
  slashed: string,
  profile: PlatformProfile,
): CompiledPattern {
  const platform = profile.platform;
  const subtree = slashed.endsWith("/**");
  const anchorText = subtree ? text.slice(0, -3) : text;
  const anchorSlashed = subtree ? slashed.slice(0, -3) : slashed;
  // The anchor is never empty or a lone separator here: `/**`, `\**` and `/` were refused above
  // as catch-alls.
  if (isSep(anchorText[anchorText.length - 1], platform)) {
    return reject("no trailing separator (end a folder with /** to cover what is inside)");
  }
  if (anchorText.startsWith("~") && anchorText.length > 1 && !isSep(anchorText[1], platform)) {
    return reject("~ or ~/… (other users' homes, ~user, are not supported)");
  }
  const withoutNs = anchorSlashed.replace(/^\/\/[?.]\//, "");
  if (withoutNs.includes("**")) return reject("** only at the start (**/…) or the end (…/**)");
  if (hasWildcard(withoutNs))
    return reject("an anchored path without wildcards (use **/NAME for names anywhere)");
  const unset = unsetLeadingVar(anchorText, profile);
  const lex = lexicalPath(anchorText, profile);
  if (!lex.ok) return reject(`a path that can be canonicalised (${lex.error})`);
  if (!lex.wasAbsolute) {
    if (unset !== undefined)
      return {
        ok: true,
        pattern: inertPattern(body, subtree, `variable ${unset} is not set on this machine`),
      };
    return reject("an absolute anchor (/…, ~/…, $VAR/…, C:\\…) or **/ for names anywhere");
  }
  // A drive or `/` subtree is everything; a UNC share's subtree (`\\srv\share\**`) is not.
  const shareRoot = lex.parsed.root.startsWith("\\\\");
  if (lex.parsed.segments.length === 0 && subtree && !shareRoot) return reject(EVERYTHING);
  if (lex.parsed.segments.length === 0 && !subtree) return reject("a file, not a root folder");
  return { ok: true, pattern: anchoredPattern(body, subtree, lex.lexical, platform) };
}

function inertPattern(body: string, subtree: boolean, why: string): CompiledPathPattern {
  const never = (): boolean => false;
  return { body, form: subtree ? "subtree" : "file", inert: why, test: never, below: never };
}

function under(p: PreparedPath, anchor: PreparedPath, subtree: boolean): boolean {
  if (p.root !== anchor.root) return false;
  const n = anchor.segments.length;
  // A path shorter than the anchor fails the loop at once: its name at n - 1 is undefined.
  if (!subtree && p.segments.length !== n) return false;
  for (let i = n - 1; i >= 0; i--) if (p.segments[i] !== anchor.segments[i]) return false; // names differ most at the end
  return true;
}

/**
 * The anchor lies below the folder `dir`, so that moving or removing `dir` moves or removes it:
 * strictly below for a FILE, at or below for a SUBTREE (whose folder is itself protected).
 */
function anchorBelow(dir: PreparedPath, anchor: PreparedPath, subtree: boolean): boolean {
  if (dir.root !== anchor.root) return false;
  const n = dir.segments.length;
  // An anchor shorter than `dir` fails the loop at once (its name at n - 1 is undefined); a FILE
  // anchor at `dir` itself is not below it.
  if (!subtree && anchor.segments.length === n) return false;
  for (let i = n - 1; i >= 0; i--) if (dir.segments[i] !== anchor.segments[i]) return false;
  return true;
}

function anchoredPattern(
  body: string,
  subtree: boolean,
  anchor: string,
  platform: Platform,
): CompiledPathPattern {
  const lexicalAnchor = splitPath(anchor, platform);
  let realMemo: { real: string; prepared: PreparedPath } | undefined;
  // The real path of the anchor, when a resolver says it differs from the lexical one.
  const realAnchor = (resolver: PathResolver | undefined): PreparedPath | undefined => {
    if (!resolver) return undefined;
    // No NFC step for darwin here: splitPath folds each name, which normalises it.
    const real = resolver.anchorRealpath ? resolver.anchorRealpath(anchor) : resolver.realpath(anchor);
    if (real === undefined || real === anchor) return undefined;
    if (realMemo?.real !== real) realMemo = { real, prepared: splitPath(real, platform) };
    return realMemo.prepared;
  };
  const testReal = (absolute: string, resolver?: PathResolver): boolean => {
    const real = realAnchor(resolver);
    return real !== undefined && under(preparePath(absolute, platform), real, subtree);
  };
  return {
    body,
    form: subtree ? "subtree" : "file",
    anchor,
    testReal,
    test(absolute: string, resolver?: PathResolver): boolean {
      if (under(preparePath(absolute, platform), lexicalAnchor, subtree)) return true;
      return testReal(absolute, resolver);
    },
    below(absolute: string, resolver?: PathResolver): boolean {
      const dir = preparePath(absolute, platform);
      if (anchorBelow(dir, lexicalAnchor, subtree)) return true;
      const real = realAnchor(resolver);
      return real !== undefined && anchorBelow(dir, real, subtree);
    },
  };
}
