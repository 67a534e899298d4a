import { readdirSync, readFileSync, rmSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { cli, fixture, handshake, sandbox, session, type Msg } from "../../helpers/pins.js";

// Resources, prompts and resource templates are checked against the lock at run time: drift is
// unapproved text the model read, so the session is tainted. Judged by what reached the server.

const boxes: ReturnType<typeof sandbox>[] = [];
afterEach(() => {
  for (const b of boxes.splice(0)) rmSync(b.dir, { recursive: true, force: true });
});

const write = (id: number): Msg => ({
  jsonrpc: "2.0",
  id,
  method: "tools/call",
  params: { name: "write_file", arguments: { path: "package.json", content: "{}" } },
});
const listResources: Msg = { jsonrpc: "2.0", id: 4, method: "resources/list", params: {} };

/** The ids of the tools/call requests the fixture server received. */
const callsReceived = (state: string): unknown[] =>
  readFileSync(join(state, "received.jsonl"), "utf8")
    .split("\n")
    .filter((l) => l !== "")
    .map((l) => JSON.parse(l) as Msg)
    .filter((m) => m.method === "tools/call")
    .map((m) => m.id);

async function run(approvals: number) {
  const box = sandbox();
  boxes.push(box);
  const argv = ["node", fixture("resource-drift.mjs"), box.state];
  // Each approve lists the resources once more; the second listing is the drifted one.
  for (let i = 0; i < approvals; i++) expect(cli(box, ["approve", "--", ...argv]).code).toBe(0);
  const lock = join(box.dir, "effectgate.lock");
  const s = await session(
    box,
    ["--level", "strict", "--lock", lock, "--", ...argv],
    [...handshake, write(3), listResources, write(5)],
  );
  return { box, ...s };
}

describe("resources checked against the lock at run time", () => {
  it("a changed resource taints the session: at strict the next package.json write is refused", async () => {
    const { box, answers, stderr } = await run(1);
    expect(answers.get(4)?.result?.resources).toHaveLength(2); // the listing is relayed unchanged
    expect(stderr).toContain('pin: [high] resource "file:///docs/guide.md": description changed');
    expect(stderr).toContain('pin: [medium] new resource "http://localhost:8080/admin"');
    expect(callsReceived(box.state)).toEqual([3]);
    const refusal = String(answers.get(5)?.result?.content?.[0]?.text);
    expect(answers.get(5)?.result?.isError).toBe(true);
    expect(refusal).toContain("paths.confirm_if_tainted **/package.json");
    expect(refusal).toContain("this session has taken in untrusted content");
    const logs = join(box.home, ".effectgate", "sessions");
    const log = readdirSync(logs)
      .map((f) => readFileSync(join(logs, f), "utf8"))
      .join("");
    expect(log).toContain('"reason":"rug-pull"');
    expect(log).toContain('"by":"(resources/list)"');
  });

  it("the same listing, approved as it is, changes nothing: both writes reach the server", async () => {
    const { box, answers, stderr } = await run(2);
    expect(stderr).not.toContain("pin: [");
    expect(callsReceived(box.state)).toEqual([3, 5]);
    expect(answers.get(5)?.result?.content?.[0]?.text).toBe("ok write_file");
  });
});
