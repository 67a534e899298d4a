// Parse a config file's text into a value, per format. A leading BOM is ignored here and kept
// by the editors. Errors name the first problem with its line.
import { type ParseError, parse as parseJsonc, printParseErrorCode } from "jsonc-parser";
import { parse as parseToml } from "smol-toml";
import { parseDocument } from "yaml";
import { parseStrictJson } from "../core/json/strict-json.js";
import type { Format } from "./types.js";

export type Parsed = { ok: true; value: unknown } | { ok: false; error: string };

export function stripBom(text: string): { bom: string; body: string } {
  return text.startsWith("\uFEFF") ? { bom: "\uFEFF", body: text.slice(1) } : { bom: "", body: text };
}

/** `line:column` (both from 1) of a UTF-16 offset. */
function lineColumn(text: string, offset: number): string {
  let line = 1;
  let start = 0;
  for (let i = 0; i < offset && i < text.length; i++)
    if (text.charCodeAt(i) === 10) {
      line++;
      start = i + 1;
    }
  return `${line}:${offset - start + 1}`;
}

/** JSON.parse says "at position N", or no place at all; people look for a line. */
function withLine(body: string, error: string): string {
  if (/ at position \d+/.test(error))
    return error.replace(
      / at position (\d+)/,
      (_m, at: string) => ` at line ${lineColumn(body, Number(at))}`,
    );
  const errors: ParseError[] = [];
  parseJsonc(body, errors, { allowTrailingComma: false, disallowComments: true });
  const first = errors[0];
  return first ? `line ${lineColumn(body, first.offset)}: ${error}` : error;
}

export function parseConfig(text: string, format: Format): Parsed {
  const { body } = stripBom(text);
  if (format === "json" || format === "jsonc") {
    if (format === "json") {
      // Strict clients (Cline, Claude) refuse comments and duplicate keys; so do we.
      const strict = parseStrictJson(body);
      if (!strict.ok) return { ok: false, error: withLine(body, strict.error) };
    }
    const errors: ParseError[] = [];
    const value: unknown = parseJsonc(body, errors, { allowTrailingComma: true, disallowComments: false });
    const first = errors[0];
    if (first)
      return {
        ok: false,
        error: `line ${lineColumn(body, first.offset)}: ${printParseErrorCode(first.error)}`,
      };
    return { ok: true, value };
  }
  if (format === "toml") {
    try {
      return { ok: true, value: parseToml(body) };
    } catch (err) {
      // smol-toml keeps the place in fields; its message's first line does not say it.
      const { message, line, column } = err as Error & { line?: unknown; column?: unknown };
      const where =
        typeof line === "number" ? `line ${line}${typeof column === "number" ? `:${column}` : ""}: ` : "";
      return { ok: false, error: where + (message.split("\n")[0] ?? "not valid TOML") };
    }
  }
  const doc = parseDocument(body, { uniqueKeys: true });
  const first = doc.errors[0];
  if (first) return { ok: false, error: `line ${first.linePos?.[0]?.line ?? "?"}: ${first.code}` };
  return { ok: true, value: doc.toJS() as unknown };
}
