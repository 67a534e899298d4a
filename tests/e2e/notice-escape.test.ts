import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { RawClient, RECORDING_SERVER, sandbox } from "./harness.js";

// stderr notices quote what a client or server wrote: judged by the bytes that reach stderr.

describe("notices on stderr", () => {
  it("escape terminal controls and hidden characters from a call, and stay one line", async () => {
    const { home, env } = sandbox();
    const c = new RawClient(["--level", "enforce", "--", process.execPath, RECORDING_SERVER], env);
    await c.initialize();
    // A confirm verdict at enforce is relayed and announced, quoting the path as written.
    const path = join(home, "p\u001b[2J\u200b\n", "CLAUDE.md");
    await c.call(1, "write_file", { path, content: "{}" });
    expect(await c.close()).toBe(0);
    const notice = c.stderr.split("\n").find((l) => l.includes("CLAUDE.md"));
    expect(notice).toBeDefined();
    expect(notice).toContain("p\\x1b[2J\\u200b\\x0a");
    expect(c.stderr.includes("\u001b") || c.stderr.includes("\u200b")).toBe(false);
  });
});
