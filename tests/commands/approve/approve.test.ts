import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { cli, fixture, ROOT, sandbox } from "../../helpers/pins.js";

// Black-box: `node dist/main.js approve …` against fixture servers over real stdio.

function approveThenDiff(script: string) {
  const box = sandbox();
  const server = ["node", fixture(script), box.state];
  const first = cli(box, ["approve", "--", ...server]);
  expect(first.stderr).toBe("");
  expect(first.code).toBe(0);
  expect(first.stdout).toContain("wrote effectgate.lock");
  // The fixture's state folder makes its second listing differ from the first.
  const diff = cli(box, ["approve", "--diff", "--", ...server]);
  return { box, server, diff };
}

const alive = (pid: number): boolean => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

describe("effectgate approve --diff", () => {
  it("catches a changed description and prints it escaped", () => {
    const { diff } = approveThenDiff("rugpull.mjs");
    expect(diff.code).toBe(1);
    expect(diff.stdout).toContain('[high]   tool "read_file": description changed');
    expect(diff.stdout).toContain('was: "Read a file from disk."');
    expect(diff.stdout).toContain('now: "Read a file from disk. \\x1b[2K<IMPORTANT>');
    expect(diff.stdout).not.toContain("\u001b");
    expect(diff.stdout).not.toContain("list_dir");
  });

  it("catches a widened schema", () => {
    const { diff } = approveThenDiff("widen.mjs");
    expect(diff.code).toBe(1);
    expect(diff.stdout).toContain('tool "write_note": schema widened: "path" no longer required');
    expect(diff.stdout).toContain('tool "write_note": schema widened: new property "mode"');
    expect(diff.stdout).toContain(
      'tool "write_note": schema changed: type of "n" changed from integer to string',
    );
  });

  it("catches an added tool", () => {
    const { diff } = approveThenDiff("addtool.mjs");
    expect(diff.code).toBe(1);
    expect(diff.stdout).toContain('[high]   new tool "exec"');
    expect(diff.stdout).not.toContain('tool "echo"');
  });

  it("follows every page, ignores noise, answers the server's roots/list with no roots, leaves no process", () => {
    const { box, diff } = approveThenDiff("paginate.mjs");
    expect(diff.code).toBe(1);
    // "echo" is only on the third page.
    expect(diff.stdout).toContain('tool "echo": description changed');
    const lock = JSON.parse(readFileSync(join(box.dir, "effectgate.lock"), "utf8"));
    const entry = Object.values(lock.servers)[0] as { tools: object; instructions: string; prompts: object };
    expect(Object.keys(entry.tools)).toEqual(["alpha", "bravo", "charlie", "delta", "echo"]);
    expect(entry.instructions).toBe("Use these tools carefully.");
    expect(Object.keys(entry.prompts)).toEqual(["summarise"]);
    const received = readFileSync(join(box.state, "received.jsonl"), "utf8")
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l));
    expect(received).toContainEqual({ jsonrpc: "2.0", id: 0, result: { roots: [] } });
    expect(received.filter((m) => m.method === "tools/list").map((m) => m.params.cursor ?? null)).toEqual([
      null,
      "2",
      "4",
      null,
      "2",
      "4",
    ]);
    for (const pid of readFileSync(join(box.state, "pids"), "utf8").trim().split("\n").map(Number))
      expect(alive(pid)).toBe(false);
  });

  it("exits 0 and says unchanged when nothing changed; approving again writes nothing new", () => {
    const box = sandbox();
    const server = ["node", fixture("addtool.mjs")]; // no state folder: the same list every time
    expect(cli(box, ["approve", "--", ...server]).code).toBe(0);
    const before = readFileSync(join(box.dir, "effectgate.lock"), "utf8");
    const diff = cli(box, ["approve", "--diff", "--", ...server]);
    expect(diff.code).toBe(0);
    expect(diff.stdout).toMatch(/: unchanged \(1 tools\)/);
    const again = cli(box, ["approve", "--", ...server]);
    expect(again.stdout).toContain("no changes");
    expect(readFileSync(join(box.dir, "effectgate.lock"), "utf8")).toBe(before);
  });

  it("exits 1 without an entry, and keeps other servers' entries when approving", () => {
    const box = sandbox();
    const a = ["node", fixture("addtool.mjs")];
    expect(cli(box, ["approve", "--name", "a", "--", ...a]).code).toBe(0);
    const missing = cli(box, ["approve", "--diff", "--name", "b", "--", "node", fixture("widen.mjs")]);
    expect(missing.code).toBe(1);
    expect(missing.stdout).toContain('no entry for servers["b"]');
    expect(cli(box, ["approve", "--name", "b", "--", "node", fixture("widen.mjs")]).code).toBe(0);
    const lock = JSON.parse(readFileSync(join(box.dir, "effectgate.lock"), "utf8"));
    expect(Object.keys(lock.servers)).toEqual(["a", "b"]);
    expect(Object.keys(lock.servers.a.tools)).toEqual(["echo"]);
  });

  it("reports changed arguments and pinned env names under one --name", () => {
    const box = sandbox();
    const first = cli(box, ["approve", "--name", "n", "--", "node", fixture("addtool.mjs")]);
    expect(first.stderr).toBe("");
    expect(first.code).toBe(0);
    const diff = cli(box, [
      "approve",
      "--diff",
      "--name",
      "n",
      "--pin-env",
      "API_TOKEN",
      "--",
      "node",
      fixture("addtool.mjs"),
      box.state,
    ]);
    expect(diff.code).toBe(1);
    expect(diff.stdout).toContain(
      `[high]   arguments changed from ["${fixture("addtool.mjs")}"] to ["${fixture("addtool.mjs")}", "${box.state}"]`,
    );
    expect(diff.stdout).toContain("[medium] environment variable names added: API_TOKEN");
  });

  it("a hand-edited lock stops --diff with exit 78 naming the entry; approve replaces it", () => {
    const box = sandbox();
    const server = ["node", fixture("addtool.mjs")];
    expect(cli(box, ["approve", "--name", "fx", "--", ...server]).code).toBe(0);
    const file = join(box.dir, "effectgate.lock");
    writeFileSync(file, readFileSync(file, "utf8").replace("Echo a message.", "Echo a message, trust me."));
    const diff = cli(box, ["approve", "--diff", "--name", "fx", "--", ...server]);
    expect(diff.code).toBe(78);
    expect(diff.stderr).toMatch(
      /^effectgate: effectgate\.lock:\d+: servers\["fx"\]\.tools\["echo"\]: hash: expected [0-9a-f]{64} \(recomputed\), got [0-9a-f]{64}; re-run effectgate approve\n$/,
    );
    const fixed = cli(box, ["approve", "--name", "fx", "--", ...server]);
    expect(fixed.code).toBe(0);
    expect(fixed.stdout).toContain("the lock was edited by hand");
    expect(cli(box, ["approve", "--diff", "--name", "fx", "--", ...server]).code).toBe(0);
  });

  it("a server that never answers: exit 1 naming what it waited for, and no orphan", () => {
    const box = sandbox();
    const r = cli(box, ["approve", "--timeout", "1", "--", "node", fixture("silent.mjs"), box.state]);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain("timed out after 1s waiting for the answer to tools/list");
    expect(existsSync(join(box.dir, "effectgate.lock"))).toBe(false);
    for (const pid of readFileSync(join(box.state, "pids"), "utf8").trim().split("\n").map(Number))
      expect(alive(pid)).toBe(false);
  });

  it("speaks 2026-07-28 server/discover to a server that refuses initialize", () => {
    const box = sandbox();
    const r = cli(box, ["approve", "--", "node", fixture("modern.mjs")]);
    expect(r.stdout).toContain("protocol 2026-07-28, 1 tools");
    expect(r.code).toBe(0);
  });

  it("a lock in a folder that does not exist: exit 78, one line naming the folder, server not started", () => {
    const box = sandbox();
    const server = ["node", fixture("addtool.mjs"), box.state];
    for (const [folder, got] of [
      [join(box.dir, "no", "such"), "no such folder"],
      [join(box.dir, "a-file"), "not a folder"],
    ] as const) {
      writeFileSync(join(box.dir, "a-file"), "");
      const lock = join(folder, "l.lock");
      const r = cli(box, ["approve", "--lock", lock, "--", ...server]);
      expect(r.code).toBe(78);
      expect(r.stdout).toBe("");
      expect(r.stderr).toBe(
        `effectgate: ${lock}: (folder): expected an existing folder ${folder} to write the lock in, got ${got}\n`,
      );
    }
    expect(existsSync(join(box.state, "pids"))).toBe(false);
  });

  it("usage errors exit 2 and a missing program exits 127", () => {
    const box = sandbox();
    expect(cli(box, ["approve"]).code).toBe(2);
    expect(cli(box, ["approve", "--timeout", "soon", "--", "node"]).code).toBe(2);
    expect(cli(box, ["approve", "--", join(box.dir, "no-such-program")]).code).toBe(127);
  });

  it("pins the real server-filesystem, then finds it unchanged", () => {
    const box = sandbox();
    const server = [
      "node",
      join(ROOT, "node_modules/@modelcontextprotocol/server-filesystem/dist/index.js"),
      box.state,
    ];
    const first = cli(box, ["approve", "--", ...server]);
    expect(first.code).toBe(0);
    const lock = JSON.parse(readFileSync(join(box.dir, "effectgate.lock"), "utf8"));
    const entry = Object.values(lock.servers)[0] as { tools: Record<string, unknown> };
    expect(Object.keys(entry.tools)).toContain("read_text_file");
    expect(Object.keys(entry.tools)).toContain("write_file");
    const diff = cli(box, ["approve", "--diff", "--", ...server]);
    expect(diff.stdout).toMatch(/unchanged \(\d+ tools\)/);
    expect(diff.code).toBe(0);
  });
});
