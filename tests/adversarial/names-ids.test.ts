import { existsSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { box, GateClient, isRefusal, LENIENT_SERVER, type Msg, receivedWork } from "./gate-client.js";
import { type Attack, expectBlocked, tc } from "./run-case.js";

// Tool names that a server may fold to write_file (the lenient fixture folds NFKC, zero-width and
// case, and then really writes): the gate must judge the path, whatever the name looks like.

const NAMES: Attack[] = [
  // what it tries: fullwidth letters, NFKC-equal to write_file
  {
    name: "fullwidth",
    tries: "\uff57\uff52\uff49\uff54\uff45_file",
    frame: () => tc(1, "\uff57\uff52\uff49\uff54\uff45_file", { path: "~/.bashrc", content: "x" }),
  },
  // what it tries: a zero-width space inside the name
  {
    name: "zero-width",
    tries: "write\\u200b_file",
    frame: () => tc(1, "write\u200b_file", { path: "~/.bashrc", content: "x" }),
  },
  // what it tries: upper case
  {
    name: "upper",
    tries: "WRITE_FILE",
    frame: () => tc(1, "WRITE_FILE", { path: "~/.bashrc", content: "x" }),
  },
  // what it tries: a name with no verb at all and the path in an odd argument
  {
    name: "no-verb",
    tries: "tool 'zz' with {target: ~/.bashrc}",
    frame: () => tc(1, "zz", { target: "~/.bashrc", path: "~/.bashrc", content: "x" }),
  },
];

describe("unicode and case tricks in tool names", () => {
  for (const a of NAMES) {
    it(`${a.name}: ${a.tries}`, async () => {
      await expectBlocked({ ...a, answerId: 1, untouched: (b) => [join(b.home, ".bashrc")] });
    });
  }
});

describe("ids that collide across directions", () => {
  it("a server request with id 1 while the client's fetch id 1 is pending: taint still lands, denied calls still refused", async () => {
    const b = box({ COLLIDE: "1" });
    const c = new GateClient(["--level", "enforce", "--", process.execPath, LENIENT_SERVER], b.env);
    await c.initialize();
    c.call(1, "fetch", { url: "https://example.com/page" });
    // The server asks roots/list with id 1 before answering the fetch; the client answers it.
    const deadline = Date.now() + 10_000;
    let asked: Msg | undefined;
    while (!asked && Date.now() < deadline) {
      asked = c.messages.find((m) => (m as Msg).method === "roots/list") as Msg | undefined;
      if (!asked) await new Promise((r) => setTimeout(r, 20));
    }
    expect(asked?.id).toBe(1);
    // While both ids 1 are open, a denied write with id 1 as a string and one with id 2.
    c.call("1", "write_file", { path: "~/.bashrc", content: "x" });
    c.send({ jsonrpc: "2.0", id: 1, result: { roots: [] } });
    const fetched = await c.answer(1);
    const bashrc = await c.answer("1");
    // After the fetch the session is tainted: an exec tool is refused at enforce (action_if_tainted: deny).
    c.call(2, "run_command", { command: "deploy-tool > /tmp/never" });
    const run = await c.answer(2);
    await c.close();
    expect(JSON.stringify(fetched)).toContain("Ignore previous instructions");
    expect(isRefusal(bashrc)).toBe(true);
    expect(isRefusal(run)).toBe(true);
    expect(existsSync(join(b.home, ".bashrc"))).toBe(false);
    const work = receivedWork(b.record);
    expect(work.some((l) => l.includes("run_command"))).toBe(false);
    expect(work.some((l) => l.includes(".bashrc"))).toBe(false);
    // The client's answer to the server's own request did reach it.
    expect(work.some((l) => l.includes('"roots":[]'))).toBe(true);
  });
});
