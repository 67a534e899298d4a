import { existsSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { box } from "./gate-client.js";
import { type Attack, expectBlocked, runAttack } from "./run-case.js";

// Parser differentials: the fixture server runs with FIRST_WINS=1, so of two equal member names it
// keeps the first, while JSON.parse keeps the last. Any frame with a duplicate name is read two
// ways; the gate must not let the server's reading slip past its own.

const bashrc = (h: string): string => join(h, ".bashrc");
const FIRST_WINS = { FIRST_WINS: "1" };
const denied = '"params":{"name":"write_file","arguments":{"path":"~/.bashrc","content":"x"}}';

const DIFFERENTIAL: Attack[] = [
  // what it tries: "method" twice: the gate reads ping (not judged), the server tools/call
  {
    name: "dup-method",
    tries: '"method":"tools/call","method":"ping"',
    answerId: "dm",
    frame: () => `{"jsonrpc":"2.0","id":"dm","method":"tools/call","method":"ping",${denied}}\n`,
  },
  // what it tries: the same without an id: the gate reads a notification, the server a call
  {
    name: "dup-method-notification",
    tries: '"method":"tools/call","method":"notifications/initialized", no id',
    frame: () => `{"jsonrpc":"2.0","method":"tools/call","method":"notifications/initialized",${denied}}\n`,
  },
  // what it tries: "params" twice, the denied one first
  {
    name: "dup-params",
    tries: "params twice, ~/.bashrc first",
    answerId: "dp",
    frame: (b) =>
      `{"jsonrpc":"2.0","id":"dp","method":"tools/call",${denied},"params":{"name":"write_file","arguments":{"path":${JSON.stringify(join(b.project, "ok.txt"))},"content":"x"}}}\n`,
  },
  // what it tries: "path" twice inside arguments, the denied one first
  {
    name: "dup-path-first",
    tries: '{"path":"~/.bashrc","path":"<project>/ok.txt"}',
    answerId: "dq",
    frame: (b) =>
      `{"jsonrpc":"2.0","id":"dq","method":"tools/call","params":{"name":"write_file","arguments":{"path":"~/.bashrc","content":"x","path":${JSON.stringify(join(b.project, "ok.txt"))}}}}\n`,
  },
];

describe("duplicate names read first-wins by the server: refused at enforce", () => {
  for (const a of DIFFERENTIAL) {
    it(`${a.name}: ${a.tries}`, async () => {
      await expectBlocked({ ...a, env: FIRST_WINS, untouched: (b) => [bashrc(b.home)] });
    });
  }
});

describe("control: with the checks off the first-wins server writes ~/.bashrc", () => {
  for (const a of DIFFERENTIAL) {
    it(a.name, async () => {
      const { b } = await runAttack(a, box({ ...FIRST_WINS, EFFECTGATE_OFF: "1" }));
      expect(existsSync(bashrc(b.home))).toBe(true);
    });
  }
});
