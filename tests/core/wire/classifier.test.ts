import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Gate } from "../../../src/core/gate/gate.js";
import { fixture, startRelay, tempDir, type Harness } from "../../relay/helpers.js";

// Random and mutated frames never crash the relay and never let a judged call reach the server
// unjudged: the gate here refuses every call it is shown, so any tools/call (resources/read,
// prompts/get) the recording server receives slipped past judgement.

const JUDGED = new Set(["tools/call", "resources/read", "prompts/get"]);
const refuseAll: Gate = { judge: async () => ({ action: "refuse", text: "fuzz gate refuses everything" }) };

/** Every method a lenient server could read from this line (last-wins and first-wins alike). */
function methodsALenientServerSees(line: string): string[] {
  let value: unknown;
  try {
    value = JSON.parse(line.replace(/^\uFEFF/, ""));
  } catch {
    return [];
  }
  const members = Array.isArray(value) ? value : [value];
  const found: string[] = [];
  for (const m of members)
    if (m && typeof m === "object" && typeof (m as { method?: unknown }).method === "string")
      found.push((m as { method: string }).method);
  // First-wins readers: every "method" member spelled in the raw text, escapes decoded.
  for (const match of line.matchAll(/"(?:[^"\\]|\\.)*"\s*:\s*("(?:[^"\\]|\\.)*")/g)) {
    try {
      const key = JSON.parse(match[0].slice(0, match[0].indexOf(":")).trim()) as string;
      if (key === "method") found.push(JSON.parse(match[1]!) as string);
    } catch {
      /* not a member */
    }
  }
  return found;
}

const method = fc.constantFrom(
  "tools/call",
  "tools\\/call",
  "tools\\u002fcall",
  "resources/read",
  "prompts/get",
  "ping",
  "tools/list",
  "notifications/cancelled",
);
const id = fc.oneof(
  fc.integer(),
  fc.string({ maxLength: 4 }),
  fc.constant(null),
  fc.constant(1.5),
  fc.constant(undefined),
);
const member = fc
  .record({ m: method, id, dupMethod: fc.option(method), extra: fc.boolean(), argsAsString: fc.boolean() })
  .map(({ m, id, dupMethod, extra, argsAsString }) => {
    const idPart = id === undefined ? "" : `"id":${JSON.stringify(id)},`;
    const args = argsAsString ? '"{\\"path\\":\\"/x\\"}"' : '{"path":"/home/u/.ssh/id_rsa"}';
    const dup = dupMethod === null ? "" : `"method":"${dupMethod}",`;
    return `{"jsonrpc":"2.0",${idPart}"method":"${m}",${dup}"params":{"name":"read_file","arguments":${args}}${extra ? ',"x":1' : ""}}`;
  });
const frame = fc.oneof(
  member,
  fc
    .array(fc.oneof(member, fc.constantFrom("1", "null", "{}", '{"jsonrpc":"2.0","id":5}')), {
      minLength: 1,
      maxLength: 4,
    })
    .map((ms) => `[${ms.join(",")}]`),
  member.map((m) => "\uFEFF" + m),
  member.chain((m) => fc.nat(m.length).map((cut) => m.slice(0, cut))),
  fc
    .uint8Array({ maxLength: 60 })
    .map((b) => Buffer.from(b.filter((x) => x !== 0x0a && x !== 0x0d)).toString("latin1")),
);

describe("classifier under random frames", () => {
  let relay: Harness;
  let record: string;
  let seen = 0;

  beforeAll(async () => {
    record = join(tempDir("eg-fuzz-"), "received.jsonl");
    writeFileSync(record, "");
    relay = startRelay(["node", fixture("echo.mjs"), record], { gate: refuseAll });
    relay.send(
      '{"jsonrpc":"2.0","id":"init","method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"fuzz","version":"1"}}}\n',
    );
    await relay.next();
  });

  afterAll(async () => {
    relay.end();
    expect((await relay.result).exitCode).toBe(0);
  });

  it("no judged call reaches the server, whatever the frame", async () => {
    let sentinel = 0;
    await fc.assert(
      fc.asyncProperty(
        fc.array(frame, { minLength: 1, maxLength: 5 }),
        fc.boolean(),
        async (frames, crlf) => {
          for (const f of frames) relay.send(f + (crlf ? "\r\n" : "\n"));
          const tag = `sentinel-${++sentinel}`;
          relay.send(`{"jsonrpc":"2.0","id":"${tag}","method":"ping"}\n`);
          // Everything sent before the ping has reached the server once the ping's answer is back.
          for (;;) {
            const line = await relay.next();
            if (line.includes(`"${tag}"`)) break;
          }
          const lines = readFileSync(record, "utf8").split("\n").filter(Boolean);
          const fresh = lines.slice(seen);
          seen = lines.length;
          for (const line of fresh) {
            const slipped = methodsALenientServerSees(line).filter((m) => JUDGED.has(m));
            expect(slipped, `reached the server unjudged: ${line}`).toEqual([]);
          }
        },
      ),
      { numRuns: 150 },
    );
  });
});
