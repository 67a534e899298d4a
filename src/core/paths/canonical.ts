import type { Canonical, PathResolver, PlatformProfile } from "./api.js";
import { afterHome, expandVars, fileUriToPath, isFileUri } from "./expand.js";
import { joinPath, normaliseSegments, parsePath, type Parsed, win32Name } from "./lexical.js";
import { hasParentStep, physicalPath } from "./physical.js";
import { lexicalMemo } from "./lexical-memo.js";

// canonicalise(): every way of writing a path → one absolute lexical form, then its real path.
// Order matters and is the same on every branch: refuse bad text → trim → file: URI or ~/env
// expansion → (win32) prefixes, separators, streams, trailing dots → place relative paths under
// the server's cwd → `.`/`..` → (darwin) NFC → resolver; with a `..`, also the kernel's walk.
// The interpreting steps (trim, URI, ~, variables, Unicode equivalence) are what effectgate
// reads into the text; a server may read it literally, so each can be left out (`leaveOut`),
// and src/core/paths/readings.ts lists the readings worth judging (decision 0061).

/** Interpreting steps, as bits of a `leaveOut` mask. */
export const STEP = {
  /** Trim surrounding whitespace. */
  trim: 1,
  /** Decode a `file:` URI. */
  uri: 2,
  /** Expand a leading `~`. */
  home: 4,
  /** Expand set `$VAR`, `${VAR}` (win32: `%VAR%`, `$env:VAR`). */
  vars: 8,
  /** Look for the path's NFC form and existing names with the same NFC form (`equivalents`). */
  unicode: 16,
} as const;

/** Every interpreting step left out: the text is taken as the name of a file, as written. */
export const LITERAL = 31;

export type Interpreted = { ok: true; text: string; applied: number } | { ok: false; error: string };

/**
 * The text a path string stands for once the interpreting steps not in `leaveOut` are applied;
 * `applied` has a bit for each step that changed it. `input` has passed refuseText().
 */
export function interpret(input: string, profile: PlatformProfile, leaveOut = 0): Interpreted {
  let text = input;
  let applied = 0;
  if ((leaveOut & STEP.trim) === 0) {
    text = input.trim();
    if (text !== input) applied |= STEP.trim;
  }
  if ((leaveOut & STEP.uri) === 0 && isFileUri(text)) {
    const r = fileUriToPath(text, profile);
    if (!r.ok) return r;
    const again = refuseText(r.text);
    if (again) return { ok: false, error: `${again} (after percent-decoding the file: URI)` };
    return { ok: true, text: r.text, applied: applied | STEP.uri };
  }
  // The home folder is inserted as is: a `$` in it is never expanded (no recursive expansion).
  const rest = (leaveOut & STEP.home) === 0 ? afterHome(text, profile) : undefined;
  const head = rest === undefined ? "" : profile.home;
  if (rest !== undefined) applied |= STEP.home;
  let tail = rest ?? text;
  if ((leaveOut & STEP.vars) === 0) {
    const expanded = expandVars(tail, profile);
    if (expanded !== tail) applied |= STEP.vars;
    tail = expanded;
  }
  return { ok: true, text: head + tail, applied };
}

const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/** Why `text` cannot be a path at all, or undefined. */
export function refuseText(text: string): string | undefined {
  if (text.includes("\u0000")) return "expected a path, got a string containing NUL";
  if (LONE_SURROGATE.test(text))
    return "expected a path, got a string with a lone UTF-16 surrogate (invalid encoding)";
  if (text.trim() === "") return "expected a path, got an empty or whitespace-only string";
  return undefined;
}

export type Lexical =
  | {
      ok: true;
      lexical: string;
      /** The root and the normalised names of `lexical`. */
      parsed: Pick<Parsed, "root" | "segments">;
      wasAbsolute: boolean;
      /** The absolute path's names under `parsed.root` before `.` and `..` were folded. */
      unfolded: readonly string[];
      /** A name as written is not the name Windows opens (Canonical.renamed). */
      renamed: boolean;
    }
  | { ok: false; error: string };

/**
 * The absolute lexical form of `input` (no file-system access). `wasAbsolute` tells pattern
 * anchors apart from relative bodies, which are placed under the cwd here. `leaveOut` (STEP
 * bits) names interpreting steps to skip, for a server that takes the text more literally.
 */
export function lexicalPath(input: string, profile: PlatformProfile, leaveOut = 0): Lexical {
  const bad = refuseText(input);
  if (bad) return { ok: false, error: bad };
  const interpreted = interpret(input, profile, leaveOut);
  if (!interpreted.ok) return interpreted;
  const text = interpreted.text;
  const parsedR = parsePath(text, profile.platform);
  if (!parsedR.ok) return parsedR;
  const parsed = parsedR.parsed;
  const wasAbsolute = parsed.kind === "absolute";
  // Only the names the string itself spells: the cwd placed before a relative path is the server's.
  const renamed =
    profile.platform === "win32" &&
    parsed.segments.some((s) => {
      const opens = win32Name(s);
      return opens !== null && opens !== s;
    });
  let root = parsed.root;
  let segments = parsed.segments;
  if (!wasAbsolute) {
    const cwdR = parsePath(profile.cwd, profile.platform);
    if (!cwdR.ok || cwdR.parsed.kind !== "absolute") {
      return {
        ok: false,
        error: `expected the server's working directory to be absolute, got ${JSON.stringify(profile.cwd)}`,
      };
    }
    const cwd = cwdR.parsed;
    if (parsed.kind === "relative") {
      root = cwd.root;
      segments = [...cwd.segments, ...parsed.segments];
    } else if (parsed.kind === "rooted") {
      root = cwd.root; // `\x` is on the cwd's drive or share
    } else if (parsed.root === cwd.root) {
      segments = [...cwd.segments, ...parsed.segments]; // `C:x` with the cwd on C:
    } else {
      // `D:x`: cmd.exe keeps a per-drive cwd in the hidden variable `=D:`; without it, the drive root.
      const driveCwd = profile.env[`=${parsed.root}`];
      const dr = driveCwd === undefined ? undefined : parsePath(driveCwd, "win32");
      const base =
        dr?.ok && dr.parsed.kind === "absolute" && dr.parsed.root === parsed.root ? dr.parsed.segments : [];
      segments = [...base, ...parsed.segments];
    }
  }
  const norm = normaliseSegments(segments, profile.platform);
  if (!norm.ok) return norm;
  let lexical = joinPath(root, norm.segments, profile.platform);
  if (profile.platform === "darwin") lexical = lexical.normalize("NFC");
  return {
    ok: true,
    lexical,
    parsed: { root, segments: norm.segments },
    wasAbsolute,
    unfolded: segments,
    renamed,
  };
}

/** lexicalPath for canonicalise: the same answers, kept across calls (lexical-memo.ts). */
export const lexicalPathOnce = lexicalMemo(lexicalPath);

/**
 * The longest path any system call takes: 32,767 UTF-16 units on Windows (long paths), 4,096 bytes
 * on Linux, 1,024 on macOS. A server passes a path on as written or normalised (Node's fs resolves
 * it first on Windows), so a path longer than this both ways cannot be opened anywhere.
 */
export const MAX_PATH_CHARS = 32_767;

/** Any character outside ASCII: only such a path has other Unicode spellings. */
const NON_ASCII = /[\u0080-\uffff]/;

/**
 * Canonicalise one path argument as the server would see it. Never throws: a string that cannot
 * be placed comes back `ok: false` with the reason, so the caller refuses the call (fail closed).
 * `leaveOut` (STEP bits) skips interpreting steps: the default applies them all.
 */
export function canonicalise(
  input: string,
  profile: PlatformProfile,
  resolver: PathResolver,
  leaveOut = 0,
): Canonical {
  const lex = lexicalPathOnce(input, profile, leaveOut);
  if (!lex.ok) return { ok: false, spelled: input, error: lex.error };
  // Asking the file system about megabytes of text would only cost time (a 4 MiB string to a
  // tool effectgate does not know is read as a possible path).
  if (input.length > MAX_PATH_CHARS && lex.lexical.length > MAX_PATH_CHARS)
    return { ok: true, spelled: input, lexical: lex.lexical, resolved: lex.lexical, namesNoFile: true };
  const nfc = (p: string): string => (profile.platform === "darwin" ? p.normalize("NFC") : p);
  const resolved = nfc(resolver.realpath(lex.lexical) ?? lex.lexical);
  const out: Canonical = { ok: true, spelled: input, lexical: lex.lexical, resolved };
  if (lex.renamed) out.renamed = true;
  // `..` after a link leaves the link's target, not the folder it sits in (decision 0010).
  if (hasParentStep(lex.unfolded, profile.platform)) {
    const walked = physicalPath(lex.parsed.root, lex.unfolded, profile.platform, resolver);
    const physical = walked === undefined ? undefined : nfc(walked);
    if (physical !== undefined && physical !== resolved) out.physical = physical;
  }
  // A server may open an existing name with the same NFC form as a missing one (the reference
  // filesystem server does, on every platform): judge those spellings too (decision 0061).
  // darwin's file systems fold Unicode themselves, and the lexical form is NFC there already.
  if ((leaveOut & STEP.unicode) === 0 && profile.platform !== "darwin" && NON_ASCII.test(lex.lexical)) {
    const found = new Set([lex.lexical.normalize("NFC"), resolver.unicodeEquivalent?.(lex.lexical)]);
    found.delete(lex.lexical);
    found.delete(undefined);
    if (found.size > 0) out.equivalents = [...found] as string[];
  }
  // A file with several names: writing it changes files no path rule sees (decision 0012).
  const shared = [out.resolved, ...(out.physical === undefined ? [] : [out.physical])];
  if (shared.some((p) => resolver.hasOtherNames?.(p) === true)) out.otherNames = true;
  return out;
}

/** A resolver that knows nothing: `resolved` equals `lexical`. For offline checks and tests. */
export const LEXICAL_ONLY: PathResolver = { realpath: () => undefined };
