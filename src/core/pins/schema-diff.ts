import { canonicalJson } from "../json/jcs.js";
import type { Finding } from "./severity.js";

/**
 * Sentences a reviewer understands for a change between two JSON Schemas of a tool's input.
 * "Widened" means the tool now accepts calls it used to reject (a rug pull's usual shape:
 * a path no longer required, a new `mode`, a lost pattern) and is high; "narrowed" is medium.
 * Every differing keyword yields a sentence, so no change can go unmentioned.
 */

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === "object" && v !== null && !Array.isArray(v);
const same = (a: unknown, b: unknown): boolean => canonicalJson(a ?? null) === canonicalJson(b ?? null);
const show = (v: unknown): string => {
  const s = JSON.stringify(v) ?? "undefined";
  return s.length > 80 ? `${s.slice(0, 77)}...` : s;
};

/** Constraint keywords: losing one widens, gaining one narrows. */
const CONSTRAINTS = [
  "minimum",
  "maximum",
  "exclusiveMinimum",
  "exclusiveMaximum",
  "multipleOf",
  "minLength",
  "maxLength",
  "pattern",
  "format",
  "minItems",
  "maxItems",
  "uniqueItems",
  "minProperties",
  "maxProperties",
  "propertyNames",
  "contains",
  "not",
];
/** Keywords handled by dedicated rules below. */
const HANDLED = new Set([
  "type",
  "required",
  "properties",
  "additionalProperties",
  "items",
  "enum",
  "const",
  "description",
  "default",
  ...CONSTRAINTS,
]);

function typeText(s: Obj): string | undefined {
  const t = s["type"];
  if (typeof t === "string") return t;
  if (Array.isArray(t)) return t.map(String).join(" or ");
  return undefined;
}

export function diffSchema(
  before: unknown,
  after: unknown,
  label: "schema" | "output schema" = "schema",
): Finding[] {
  const out: Finding[] = [];
  walk(before, after, "", label, out);
  if (out.length === 0 && !same(before, after)) out.push({ text: `${label} changed`, severity: "medium" });
  return out;
}

function walk(a: unknown, b: unknown, at: string, label: string, out: Finding[]): void {
  if (same(a, b)) return;
  const subject = at === "" ? "the arguments" : `"${at}"`;
  const output = label === "output schema";
  const widened = (text: string): void =>
    void out.push({
      text: `${label} ${output ? "changed" : "widened"}: ${text}`,
      severity: output ? "medium" : "high",
    });
  const narrowed = (text: string): void =>
    void out.push({
      text: `${label} ${output ? "changed" : "narrowed"}: ${text}`,
      severity: output ? "low" : "medium",
    });
  const changed = (text: string, severity: Finding["severity"] = "medium"): void =>
    void out.push({
      text: `${label} changed: ${text}`,
      severity: output && severity === "high" ? "medium" : severity,
    });

  if (!isObj(a) || !isObj(b)) {
    // true/false schemas or junk: say what it was and what it is.
    changed(`${subject} changed from ${show(a)} to ${show(b)}`, "high");
    return;
  }
  const ta = typeText(a);
  const tb = typeText(b);
  if (ta !== tb) changed(`type of ${subject} changed from ${ta ?? "any"} to ${tb ?? "any"}`, "high");

  const child = (name: string): string => (at === "" ? name : `${at}.${name}`);
  const reqA = new Set(Array.isArray(a["required"]) ? a["required"].map(String) : []);
  const reqB = new Set(Array.isArray(b["required"]) ? b["required"].map(String) : []);
  for (const r of reqA) if (!reqB.has(r)) widened(`"${child(r)}" no longer required`);
  for (const r of reqB) if (!reqA.has(r)) narrowed(`"${child(r)}" now required`);

  const propsA = isObj(a["properties"]) ? a["properties"] : {};
  const propsB = isObj(b["properties"]) ? b["properties"] : {};
  for (const k of Object.keys(propsB).sort()) {
    if (!(k in propsA)) widened(`new property "${child(k)}"`);
    else walk(propsA[k], propsB[k], child(k), label, out);
  }
  for (const k of Object.keys(propsA).sort()) if (!(k in propsB)) narrowed(`property "${child(k)}" removed`);

  const apA = a["additionalProperties"];
  const apB = b["additionalProperties"];
  const closed = (v: unknown): boolean => v === false || isObj(v);
  if (!same(apA, apB)) {
    if (closed(apA) && !closed(apB)) widened(`${subject} now accepts any additional properties`);
    else if (!closed(apA) && closed(apB)) narrowed(`${subject} no longer accepts additional properties`);
    else if (isObj(apA) && isObj(apB)) walk(apA, apB, child("*"), label, out);
    else changed(`additionalProperties of ${subject} changed from ${show(apA)} to ${show(apB)}`);
  }

  if (!same(a["items"], b["items"])) {
    if (a["items"] === undefined) narrowed(`${subject} now constrains its items`);
    else if (b["items"] === undefined) widened(`${subject} no longer constrains its items`);
    else walk(a["items"], b["items"], `${at}[]`, label, out);
  }

  if (!same(a["enum"], b["enum"])) {
    const ea = Array.isArray(a["enum"]) ? a["enum"] : undefined;
    const eb = Array.isArray(b["enum"]) ? b["enum"] : undefined;
    if (ea === undefined) narrowed(`${subject} is now limited to ${show(eb)}`);
    else if (eb === undefined) widened(`${subject} is no longer limited to ${show(ea)}`);
    else {
      const keysA = new Set(ea.map((v) => canonicalJson(v)));
      const keysB = new Set(eb.map((v) => canonicalJson(v)));
      const added = [...keysB].filter((k) => !keysA.has(k));
      const removed = [...keysA].filter((k) => !keysB.has(k));
      if (added.length) widened(`${subject} accepts new values ${added.join(", ")}`);
      if (removed.length) narrowed(`${subject} no longer accepts ${removed.join(", ")}`);
      if (!added.length && !removed.length) changed(`order of values of ${subject} changed`, "low");
    }
  }
  if (!same(a["const"], b["const"]))
    changed(`fixed value of ${subject} changed from ${show(a["const"])} to ${show(b["const"])}`, "high");

  if (!same(a["description"], b["description"])) {
    // A property description is read by the model like the tool's own description.
    out.push({
      text: `${label} changed: description of ${subject} changed`,
      severity: output ? "medium" : "high",
      was: typeof a["description"] === "string" ? a["description"] : null,
      now: typeof b["description"] === "string" ? b["description"] : null,
    });
  }
  if (!same(a["default"], b["default"]))
    changed(`default of ${subject} changed from ${show(a["default"])} to ${show(b["default"])}`);

  for (const k of CONSTRAINTS) {
    if (same(a[k], b[k])) continue;
    if (a[k] === undefined) narrowed(`${subject} gained the constraint ${k} ${show(b[k])}`);
    else if (b[k] === undefined) widened(`${subject} lost the constraint ${k} ${show(a[k])}`);
    else changed(`${k} of ${subject} changed from ${show(a[k])} to ${show(b[k])}`);
  }

  const others = new Set([...Object.keys(a), ...Object.keys(b)].filter((k) => !HANDLED.has(k)));
  for (const k of [...others].sort()) {
    if (same(a[k], b[k])) continue;
    if (a[k] === undefined) changed(`${subject} gained "${k}" ${show(b[k])}`);
    else if (b[k] === undefined) changed(`${subject} lost "${k}" ${show(a[k])}`);
    else changed(`"${k}" of ${subject} changed from ${show(a[k])} to ${show(b[k])}`);
  }
}
