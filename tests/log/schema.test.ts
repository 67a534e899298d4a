import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { LogRecord } from "../../src/log/records.js";

// docs/log-record.schema.json is committed for readers outside TypeScript. It must say exactly
// what zod generates from src/log/records.ts, so a change to the records cannot leave it stale.
// Compared as JSON values, not bytes, so `npm run format` (prettier) does not break it. To refresh
// it after changing records.ts, see "JSON Schema" in docs/log-format.md.
const committed = join(import.meta.dirname, "..", "..", "docs", "log-record.schema.json");

describe("log record JSON Schema", () => {
  it("matches the committed docs/log-record.schema.json", () => {
    const generated = JSON.parse(JSON.stringify(z.toJSONSchema(LogRecord))) as unknown;
    expect(JSON.parse(readFileSync(committed, "utf8"))).toStrictEqual(generated);
  });

  it("covers every record type", () => {
    const schema = JSON.parse(readFileSync(committed, "utf8")) as { oneOf?: unknown[]; anyOf?: unknown[] };
    const variants = (schema.oneOf ?? schema.anyOf ?? []) as { properties: { type: { const: string } } }[];
    expect(variants.map((v) => v.properties.type.const).sort()).toEqual([
      "event",
      "exit",
      "frame",
      "header",
      "stderr",
    ]);
  });
});
