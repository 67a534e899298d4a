/**
 * The ways a client could read a server message as an answer: which id, which result or error
 * (exact and case-folded members), and the id as the client spelled it (decision 0063).
 */
import type { Message } from "./jsonrpc.js";
import { foldedValues, foldVariants } from "../json/key-fold.js";
import { isSpace } from "../json/json-chars.js";
import { closingQuote } from "../json/strict-json.js";

/** One way a client could read a server message as a response: with this id, this answer. */
export interface AnswerReading {
  id: unknown;
  /** The response as that reader sees it (its `result` or `error` member, and `id`). */
  msg: Message;
  /** `exact`: members by their exact names; `case-folded`: as Go's encoding/json matches them. */
  how: "exact" | "case-folded";
}

/**
 * Every (id, answer) pair some client could read from one server message object. The exact
 * reading counts whenever there is a `result` or `error`, whatever else the object holds (the
 * Python SDK takes `{"id":1,"method":null,"result":…}` for a response). Members whose names
 * differ from `id`, `result` or `error` only in case are read by Go clients, last one winning;
 * every pairing of them is a reading, so the order of members never matters here.
 */
export function answerReadings(m: Message): AnswerReading[] {
  const out: AnswerReading[] = [];
  if ("id" in m && ("result" in m || "error" in m)) out.push({ id: m.id, msg: m, how: "exact" });
  if (foldVariants(m, ["id", "result", "error"]).length === 0) return out;
  const ids = foldedValues(m, "id");
  const answers = [
    ...foldedValues(m, "result").map((v) => ({ result: v })),
    ...foldedValues(m, "error").map((v) => ({ error: v })),
  ];
  for (const [i, id] of ids.entries())
    for (const [j, answer] of answers.entries()) {
      // The first id with the first answer is the exact reading when both are spelled exactly.
      if (i === 0 && j === 0 && out.length > 0) continue;
      out.push({ id, msg: { id, ...answer }, how: "case-folded" });
    }
  return out;
}

/**
 * The raw text of each message-level `id` value in `text` (valid JSON), by message: index 0 for
 * a single message, the member's index for a batch. For ids JSON.parse cannot keep exact
 * (isRoundedIntegerId): an answer must carry the client's own spelling.
 */
export function messageIdSpellings(text: string): Map<number, string> {
  const out = new Map<number, string>();
  const stack: Array<{ object: boolean; expectKey: boolean }> = [];
  let topIsArray = false;
  let index = 0;
  const n = text.length;
  for (let i = 0; i < n; i++) {
    const c = text.charCodeAt(i);
    const top = stack[stack.length - 1];
    if (c === 0x22 /* " */) {
      const end = closingQuote(text, i);
      if (top?.object && top.expectKey) {
        top.expectKey = false;
        const messageLevel = stack.length === 1 || (stack.length === 2 && topIsArray);
        const raw = text.slice(i, end + 1);
        const key = raw.includes("\\") ? (JSON.parse(raw) as string) : raw.slice(1, -1);
        if (messageLevel && key === "id") {
          let j = end + 1;
          while (j < n && (isSpace(text.charCodeAt(j)) || text.charCodeAt(j) === 0x3a)) j++;
          let k = j;
          while (k < n && !/[\s,}\]]/.test(text.charAt(k))) k++;
          out.set(topIsArray ? index : 0, text.slice(j, k));
        }
      }
      i = end;
    } else if (c === 0x7b /* { */ || c === 0x5b /* [ */) {
      if (stack.length === 0) topIsArray = c === 0x5b;
      stack.push({ object: c === 0x7b, expectKey: c === 0x7b });
    } else if (c === 0x7d /* } */ || c === 0x5d /* ] */) {
      stack.pop();
    } else if (c === 0x2c /* , */) {
      if (top?.object) top.expectKey = true;
      if (stack.length === 1 && topIsArray) index++;
    }
  }
  return out;
}
