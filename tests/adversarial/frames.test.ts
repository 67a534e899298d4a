import { join } from "node:path";
import { describe, it } from "vitest";
import { type Attack, expectBlocked } from "./run-case.js";

// Frames built to be read one way by the gate and another by the server, or to be too big, too
// deep or too odd to judge. At enforce every one must be refused (fail closed) and none may reach
// the lenient server, which would happily act on it.

const bashrc = (h: string): string => join(h, ".bashrc");
const ok = (p: string, name = "ok.txt"): string => join(p, name);
const line = (o: unknown): string => JSON.stringify(o) + "\n";
const call = (id: unknown, name: string, args: unknown): Record<string, unknown> => ({
  jsonrpc: "2.0",
  id,
  method: "tools/call",
  params: { name, arguments: args },
});

function deep(levels: number, leaf: unknown): unknown {
  let v: unknown = leaf;
  for (let i = 0; i < levels; i++) v = { a: v };
  return v;
}

const FRAMES: Attack[] = [
  // what it tries: a batch whose harmless member would go through if the batch were split
  {
    name: "batch-mixed",
    tries: "[harmless write, ~/.bashrc write]: nothing of the batch may reach the server",
    frame: (b) =>
      line([
        call("b1", "write_file", { path: ok(b.project), content: "x" }),
        call("b2", "write_file", { path: "~/.bashrc", content: "x" }),
      ]),
    answerId: "b1",
  },
  // what it tries: a batch with one malformed member next to a harmless write
  {
    name: "batch-malformed",
    tries: "[harmless write, {method: 5}]",
    frame: (b) =>
      line([
        call("m1", "write_file", { path: ok(b.project), content: "x" }),
        { jsonrpc: "2.0", id: "m2", method: 5 },
      ]),
    answerId: "m1",
  },
  // what it tries: duplicate "name": the gate reads one tool, a first-wins server another
  {
    name: "dup-name",
    tries: '{"name":"read_text_file","name":"write_file"}',
    frame: () =>
      '{"jsonrpc":"2.0","id":"d1","method":"tools/call","params":{"name":"read_text_file","name":"write_file","arguments":{"path":"~/.bashrc","content":"x"}}}\n',
    answerId: "d1",
  },
  // what it tries: duplicate "path" keys in arguments, harmless first, denied last (JSON.parse keeps the last)
  {
    name: "dup-path",
    tries: '{"path":"<project>/ok.txt","path":"~/.bashrc"}',
    frame: (b) =>
      `{"jsonrpc":"2.0","id":"d2","method":"tools/call","params":{"name":"write_file","arguments":{"path":${JSON.stringify(ok(b.project))},"content":"x","path":"~/.bashrc"}}}\n`,
    answerId: "d2",
  },
  // what it tries: arguments as a JSON string that a lenient server parses
  {
    name: "arguments-string",
    tries: '"arguments": "{\\"path\\":\\"~/.bashrc\\"}"',
    frame: () =>
      line({
        jsonrpc: "2.0",
        id: "s1",
        method: "tools/call",
        params: { name: "write_file", arguments: JSON.stringify({ path: "~/.bashrc", content: "x" }) },
      }),
    answerId: "s1",
  },
  // what it tries: 1,000 levels of nesting with the denied path at the bottom
  {
    name: "deep-1000",
    tries: "harmless path on top, ~/.bashrc 1,000 levels down",
    frame: (b) =>
      line(call("deep", "write_file", { path: ok(b.project), content: "x", meta: deep(1000, "~/.bashrc") })),
    answerId: "deep",
  },
  // what it tries: 100,000 strings so that the denied one is past any scan budget
  {
    name: "wide-100k",
    tries: "100,000 harmless strings, then ~/.bashrc",
    frame: (b) =>
      line(
        call("wide", "write_file", {
          path: ok(b.project),
          content: "x",
          list: [...Array.from({ length: 100_000 }, (_, i) => `notes/n${i}.md`), "~/.bashrc"],
        }),
      ),
    answerId: "wide",
  },
  // what it tries: the denied path after 10,000 distinct harmless strings (within budget: must be found)
  {
    name: "after-10k",
    tries: "10,000 harmless strings, then ~/.bashrc as a path",
    frame: () =>
      line(
        call("late", "write_file", {
          list: Array.from({ length: 10_000 }, (_, i) => `notes/n${i}.md`),
          path: "~/.bashrc",
          content: "x",
        }),
      ),
    answerId: "late",
  },
  // what it tries: "id": null, so no answer can be matched
  {
    name: "id-null",
    tries: '"id": null',
    frame: () => line(call(null, "write_file", { path: "~/.bashrc", content: "x" })),
  },
  // what it tries: no id at all: a "notification" that writes
  {
    name: "no-id",
    tries: "tools/call without an id",
    frame: () =>
      line({
        jsonrpc: "2.0",
        method: "tools/call",
        params: { name: "write_file", arguments: { path: "~/.bashrc", content: "x" } },
      }),
  },
  // what it tries: a line that is not JSON (trailing comma) but contains "tools/call"
  {
    name: "non-json",
    tries: "invalid JSON that names tools/call",
    frame: () =>
      '{"jsonrpc":"2.0","id":"nj","method":"tools/call","params":{"name":"write_file","arguments":{"path":"~/.bashrc","content":"x"},}}\n',
  },
  // what it tries: a byte-order mark before the JSON (some parsers skip it)
  {
    name: "bom",
    tries: "U+FEFF then a denied call",
    frame: () => "\ufeff" + line(call("bom", "write_file", { path: "~/.bashrc", content: "x" })),
  },
  // what it tries: the method spelled with a JSON escape
  {
    name: "escaped-method",
    tries: '"method":"tools\\u002fcall"',
    frame: () =>
      '{"jsonrpc":"2.0","id":"esc","method":"tools\\u002fcall","params":{"name":"write_file","arguments":{"path":"~/.bashrc","content":"x"}}}\n',
    answerId: "esc",
  },
  // what it tries: CRLF line ending
  {
    name: "crlf",
    tries: "a denied call ending in \\r\\n",
    frame: () => JSON.stringify(call("crlf", "write_file", { path: "~/.bashrc", content: "x" })) + "\r\n",
    answerId: "crlf",
  },
  // what it tries: a 32 MiB frame carrying a denied path (after the body)
  {
    name: "oversized-32MiB",
    tries: "32 MiB content, then path ~/.bashrc",
    frame: () =>
      Buffer.from(
        line(call("big", "write_file", { content: "A".repeat(32 * 1024 * 1024), path: "~/.bashrc" })),
      ),
    answerId: "big",
  },
];

describe("odd frames at enforce: refused, and nothing reaches the server", () => {
  for (const a of FRAMES) {
    it(`${a.name}: ${a.tries}`, { timeout: 60_000 }, async () => {
      await expectBlocked({ ...a, untouched: (b) => [bashrc(b.home), ok(b.project)] });
    });
  }
});
