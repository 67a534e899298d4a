/**
 * What the relay's two sides are handed: a frame's bytes, or — for a line over the big-line limit
 * — its cut text, head and hash (core/framing/big-line.ts), with the pieces it arrived in when
 * the relay holds it (enforce, strict; decision 0144). These helpers let the sides read either the
 * same way.
 */
import type { BigFrame } from "../../core/framing/big-line.js";
import { JUDGED_METHODS } from "../../core/wire/judged-methods.js";
import { isRecord } from "../../core/wire/jsonrpc.js";
import { looksLikeJudgedCall } from "../../core/wire/judged-call-text.js";
import { BIG_LINES } from "./pass-through.js";
import type { Frame } from "../../core/framing/line-splitter.js";
import type { ByteSink } from "./flow.js";
import { looksNonJson, type RelayLog } from "./types.js";

export type SeenFrame = Frame | BigFrame;

export function isBig(f: SeenFrame): f is BigFrame {
  return "sha256" in f;
}

export function textOf(f: SeenFrame): string {
  return isBig(f) ? f.text : f.bytes.toString("utf8");
}

export function mentions(f: SeenFrame, needle: Buffer): boolean {
  return isBig(f) ? f.text.includes(needle.toString("utf8")) : f.bytes.includes(needle);
}

/**
 * Writes the frame on exactly as it arrived: its bytes, or a big frame's pieces one after the
 * other, so that a 64 MiB line is never joined into one buffer. A big frame without pieces had
 * its bytes sent already (pass-through); writing it again is a bug, and fails the frame.
 */
export function writeOn(f: SeenFrame, sink: ByteSink): void {
  if (!isBig(f)) return sink.write(f.raw);
  if (f.pieces === undefined) throw new Error("a big frame whose bytes were not kept cannot be written on");
  for (const piece of f.pieces) sink.write(piece);
}

/** The cheap "not JSON" guess for frames passed on without parsing. */
export function guessNonJson(f: SeenFrame): boolean {
  return looksNonJson(isBig(f) ? Buffer.from(edges(f.text)) : f.bytes);
}

/**
 * `validJson`: the relay parsed this frame (the log may keep its bytes unescaped). `by`: the
 * `--url` bridge wrote it (a line that long is never one: the bridge writes short errors).
 */
export function logSeen(
  log: RelayLog,
  dir: "c2s" | "s2c",
  f: SeenFrame,
  nonJson: boolean,
  validJson = false,
  by?: "bridge",
): void {
  if (!isBig(f)) return log.frame(dir, f.bytes, f.eol, nonJson, validJson, by);
  log.bigFrame(dir, f, nonJson);
  // Right after its frame: what was read of it is less than the frame.
  if (f.cut) log.event("frame-cut", { dir, ...f.cut });
}

/** A carriage return anywhere but at the end of the line. */
const CR_INSIDE = /\r(?!$)/;

/** Whether the frame holds a CR before its end (a big frame says so of its whole bytes). */
export function crInside(f: SeenFrame, text: string): boolean {
  return isBig(f) ? f.crInside : CR_INSIDE.test(text);
}

/**
 * Whether the frame looks like a judged call (looksLikeJudgedCall), read whole: a big frame's
 * text may have lost the part that says so, and it was tested as it streamed past.
 */
export function looksJudged(f: SeenFrame, text: string): boolean {
  return isBig(f) && f.looksJudged !== undefined ? f.looksJudged : looksLikeJudgedCall(text);
}

/** Whether the frame was cut for reading: long strings (docs/decisions/0052), deep structure (0053). */
export function isCut(f: SeenFrame): f is BigFrame & { cut: NonNullable<BigFrame["cut"]> } {
  return isBig(f) && f.cut !== undefined;
}

/**
 * Why a frame cut for reading cannot be judged as the server reads it, or undefined when the
 * judge reads it the same cut or whole: only strings were cut, and each was a value inside a
 * judged call's `arguments` (or in a message nobody judges). The judge either skips such a value
 * (a `content` to write) or counts it, and one cut string alone is over its budget, exactly as
 * the whole one is: "too large to judge" for the same reason (docs/decisions/0066). A cut member
 * name, tool name, uri or `_meta` field, or any array or object cut short, still makes the frame
 * too large to judge.
 */
export function cutProblem(f: SeenFrame, value: unknown): string | undefined {
  if (!isCut(f)) return undefined;
  const { strings, containers } = f.cut;
  if (containers === 0 && cutStringsHarmless(value, BIG_LINES.keepChars)) return undefined;
  const what = [
    ...(strings > 0 ? [`${plural(strings, "string")} cut short`] : []),
    ...(containers > 0 ? [`${plural(containers, "array or object", "arrays or objects")} cut short`] : []),
  ].join(" and ");
  return `too large to judge: this frame of ${f.size} bytes was read with ${what}`;
}

const plural = (n: number, one: string, many = `${one}s`): string => `${n} ${n === 1 ? one : many}`;

/** First and last few characters: all looksNonJson needs, without copying a huge text. */
function edges(text: string): string {
  return text.length <= 64 ? text : `${text.slice(0, 32)}${text.slice(-32)}`;
}

/** Whether every string cut to `keep` characters in a parsed frame is one the judge reads alike. */
function cutStringsHarmless(value: unknown, keep: number): boolean {
  const messages: unknown[] = Array.isArray(value) ? value : [value];
  return messages.every((m) => {
    if (!isRecord(m)) return !holdsCut(m, keep, false);
    const judged = typeof m["method"] === "string" && JUDGED_METHODS.has(m["method"]);
    return Object.entries(m).every(([k, v]) => {
      if (k.length >= keep) return false;
      if (!judged) return !holdsCut(v, keep, true);
      if (k !== "params" || !isRecord(v)) return !holdsCut(v, keep, false);
      return Object.entries(v).every(
        ([pk, pv]) => pk.length < keep && !holdsCut(pv, keep, pk === "arguments"),
      );
    });
  });
}

/** Whether `v` holds a member name of `keep` characters or more, or (unless `valuesOk`) a string. */
function holdsCut(v: unknown, keep: number, valuesOk: boolean): boolean {
  const stack: unknown[] = [v];
  while (stack.length > 0) {
    const x = stack.pop();
    if (typeof x === "string") {
      if (!valuesOk && x.length >= keep) return true;
    } else if (Array.isArray(x)) {
      for (let i = 0; i < x.length; i++) stack.push(x[i]);
    } else if (isRecord(x)) {
      for (const [k, y] of Object.entries(x)) {
        if (k.length >= keep) return true;
        stack.push(y);
      }
    }
  }
  return false;
}
