import { createHash } from "node:crypto";

/**
 * RFC 8785 (JCS) canonical JSON. ECMAScript's JSON.stringify already produces JCS number and
 * string forms; what remains is ordering object members by the UTF-16 code units of their
 * names, which is what the default Array sort compares.
 */
export function canonicalJson(value: unknown): string {
  if (value === null || typeof value === "boolean" || typeof value === "string") return JSON.stringify(value);
  if (typeof value === "number") {
    if (!Number.isFinite(value)) throw new TypeError(`expected a finite number, got ${value}`);
    return JSON.stringify(value);
  }
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(",")}]`;
  if (typeof value === "object") {
    const obj = value as Record<string, unknown>;
    const keys = Object.keys(obj)
      .filter((k) => obj[k] !== undefined)
      .sort();
    return `{${keys.map((k) => `${JSON.stringify(k)}:${canonicalJson(obj[k])}`).join(",")}}`;
  }
  throw new TypeError(`expected a JSON value, got ${typeof value}`);
}

export function sha256Hex(text: string | Uint8Array): string {
  return createHash("sha256").update(text).digest("hex");
}

/** SHA-256 of the canonical form: presentation (key order, whitespace) never changes it. */
export function canonicalHash(value: unknown): string {
  return sha256Hex(canonicalJson(value));
}
