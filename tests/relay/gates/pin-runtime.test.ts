import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { cli, fixture, sandbox, session, handshake, call, type Msg } from "../../helpers/pins.js";

// End to end through the relay: `node dist/main.js --level enforce --lock … -- <fixture>`.
// The fixture records every message it receives, so "refused" is judged by what the server saw.

describe("pins at run time (through the relay)", () => {
  it("at enforce, a call to a tool changed since approval never reaches the server", async () => {
    const box = sandbox();
    const server = ["node", fixture("rugpull.mjs"), box.state];
    expect(cli(box, ["approve", "--", ...server]).code).toBe(0);
    // The relay's listing is the fixture's second one: read_file's description has changed.
    const { answers, stderr } = await session(
      box,
      ["--level", "enforce", "--lock", "effectgate.lock", "--", ...server],
      [...handshake, call(3, "read_file"), call(4, "list_dir")],
    );
    const refused = answers.get(3);
    expect(refused?.result?.isError).toBe(true);
    expect(JSON.stringify(refused)).toContain("changed since it was approved (description changed)");
    expect(JSON.stringify(refused)).toContain("effectgate approve --diff -- node");
    expect(answers.get(4)?.result?.content?.[0]?.text).toBe("ok list_dir");
    // The relay adds "effectgate: " to every notice; the gate must not add it again.
    expect(stderr).toMatch(
      /^effectgate: pin: \[high\] tool "read_file": description changed; review with: /m,
    );
    expect(stderr).not.toContain("effectgate: effectgate:");
    const received = readFileSync(join(box.state, "received.jsonl"), "utf8")
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l) as Msg);
    const calls = received.filter((m) => m.method === "tools/call").map((m) => m.params.name);
    expect(calls).toEqual(["list_dir"]);
    // The tools/list the client saw is the server's, unchanged (pins do not rewrite lists).
    expect(answers.get(2)?.result?.tools?.map((t: Msg) => t.name)).toEqual(["list_dir", "read_file"]);
  });

  it("a hand-edited lock stops the relay with exit 78 before the server starts", async () => {
    const box = sandbox();
    const server = ["node", fixture("rugpull.mjs"), box.state];
    expect(cli(box, ["approve", "--", ...server]).code).toBe(0);
    const lock = join(box.dir, "effectgate.lock");
    writeFileSync(lock, readFileSync(lock, "utf8").replace("List a folder.", "List any folder."));
    const { code, stderr } = await session(
      box,
      ["--level", "enforce", "--lock", "effectgate.lock", "--", ...server],
      [],
    );
    expect(code).toBe(78);
    expect(stderr).toMatch(
      /effectgate\.lock:\d+: servers\[".*rugpull\.mjs.*"\]\.tools\["list_dir"\]: hash: expected/,
    );
    // Only approve's own listing ever happened.
    expect(readFileSync(join(box.state, "pids"), "utf8").trim().split("\n")).toHaveLength(1);
    expect(existsSync(join(box.state, "received.jsonl"))).toBe(true);
  });
});
