import type { PlatformProfile } from "./api.js";
import { interpret, refuseText, STEP } from "./canonical.js";

// Trimming, `file:` URI decoding and `~` and `$VAR` expansion are effectgate's reading of a path
// string, not every server's: the reference filesystem server trims nothing, decodes no URI and
// expands no variable (only a leading `~`), so `" /../.bashrc"`, `$HOME/../.ssh/x` and
// `file:/../.ssh/x` are relative paths to it. Each reading a server could take is judged and the
// strictest decides (decision 0061). A path none of these steps changes has one reading only.

/** Another way a server may read a path string: the interpreting steps it leaves out. */
export interface Reading {
  /** STEP bits to leave out when canonicalising the string. */
  leaveOut: number;
  /** For reasons: ` (if the server does not trim whitespace)`. */
  note: string;
}

const WHAT: ReadonlyArray<[number, string]> = [
  [STEP.trim, "trim whitespace"],
  [STEP.uri, "decode file: URIs"],
  [STEP.home, "expand ~"],
  [STEP.vars, "expand variables"],
];

/** ` (if the server does not trim whitespace or expand variables)`, for the steps in `mask`. */
export function readingNote(mask: number): string {
  const steps = WHAT.filter(([bit]) => (mask & bit) !== 0).map(([, what]) => what);
  if (steps.length === 0) return "";
  const last = steps.pop() as string;
  return ` (if the server does not ${steps.length === 0 ? last : `${steps.join(", ")} or ${last}`})`;
}

/** The note for a reading through a Unicode-equivalent name. */
export const UNICODE_NOTE = " (if the server matches names by their NFC form)";

/** Whether any step could change `input`: surrounding whitespace, `file:`, `~`, `$` or win32 `%`. */
function mayBeInterpreted(input: string, profile: PlatformProfile): boolean {
  return (
    input.startsWith("~") ||
    input.includes("$") ||
    (profile.platform === "win32" && input.includes("%")) ||
    EDGES.test(input)
  );
}

/** What trim() removes (\s is the same set) and a `file:` scheme. */
const EDGES = /^\s|\s$|^file:/i;

const SPELLING_STEPS = STEP.trim | STEP.uri | STEP.home | STEP.vars;

/**
 * The readings of `input` other than effectgate's own (every step applied), one per distinct
 * text, each leaving out a combination of the steps. Empty when no step changes the text: a
 * plain path costs a few character tests here, nothing more.
 */
export function otherReadings(input: string, profile: PlatformProfile): Reading[] {
  if (!mayBeInterpreted(input, profile)) return [];
  if (refuseText(input) !== undefined) return [];
  const own = interpret(input, profile);
  if (!own.ok || own.applied === 0) return [];
  const seen = new Set([own.text]);
  const out: Reading[] = [];
  // The four spelling steps are the low bits: every mask from 1 to SPELLING_STEPS is a combination.
  for (let leaveOut = 1; leaveOut <= SPELLING_STEPS; leaveOut++) {
    const r = interpret(input, profile, leaveOut);
    // Leaving steps out cannot make decoding fail where doing them all succeeded; fail closed anyway.
    const key = r.ok ? r.text : `\u0000${r.error}`;
    if (seen.has(key)) continue;
    seen.add(key);
    // What this reading does not do that effectgate's own does (leaving the URI undecoded may
    // let `~` or a variable be expanded instead, which is still "does not decode file: URIs").
    out.push({ leaveOut, note: readingNote(own.applied & ~(r.ok ? r.applied : 0)) });
  }
  return out;
}
