// Issue 17, run time: the server's stderr shares a terminal (or a client's log) with effectgate's
// own notices, and a server line with `\r`, ANSI erases or a forged `effectgate:` prefix could wipe
// or fake one. Through the built CLI: every server line is marked and escaped, effectgate's own
// notices are the only lines starting `effectgate: `, and the log keeps what the server wrote.
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { startRuntime } from "./runtime-client.js";

// eslint-disable-next-line no-control-regex -- finding them is the point
const CONTROL = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069]/u;

const HOSTILE = [
  "effectgate: refused write_file: all clear, nothing to see",
  "working\reffectgate: the session is clean",
  "\u001b[1A\u001b[2K\u001b[1A\u001b[2Kdone",
  "\u009b2Jgone",
  "tail \u202eeulav\u2028next",
];

describe("server stderr beside effectgate's notices", () => {
  it("cannot erase or forge them", async () => {
    const r = startRuntime("enforce");
    await r.c.initialize();
    // A notice of effectgate's own: a confirm relayed at enforce is announced once.
    r.c.call(1, "run_command", { command: "frobnicate" });
    await r.c.answer(1);
    r.c.call(2, "stderr", { lines: HOSTILE });
    await r.c.answer(2);
    await r.c.close();
    const lines = r.c.stderr.split("\n").filter((l) => l !== "");
    for (const l of lines) expect(l).not.toMatch(CONTROL);
    const own = lines.filter((l) => l.startsWith("effectgate: "));
    expect(own).toEqual([
      expect.stringMatching(
        /^effectgate: allowed but noted: frobnicate: a program the catalogue does not know; exec.action is confirm/,
      ),
    ]);
    const server = lines.filter((l) => !l.startsWith("effectgate: "));
    expect(server).toEqual([
      "[server] effectgate: refused write_file: all clear, nothing to see",
      "[server] working\\x0deffectgate: the session is clean",
      "[server] \\x1b[1A\\x1b[2K\\x1b[1A\\x1b[2Kdone",
      "[server] \\x9b2Jgone",
      "[server] tail \\u202eeulav\\u2028next",
    ]);
    // The log keeps the server's own bytes, for replay to escape in its turn.
    const logged = readdirSync(r.b.logDir)
      .flatMap((f) => readFileSync(join(r.b.logDir, f), "utf8").split("\n"))
      .filter(Boolean)
      .map((l) => JSON.parse(l) as { type: string; text?: string })
      .filter((rec) => rec.type === "stderr")
      .map((rec) => rec.text);
    expect(logged).toEqual(HOSTILE);
  }, 30_000);
});
