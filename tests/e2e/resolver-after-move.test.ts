import { mkdirSync, readFileSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { FILESYSTEM_SERVER as FILESYSTEM, sandbox, sdkClient } from "./harness.js";

// The path resolver caches answers for a second. A call effectgate let through can change what a
// path names: moving a folder that holds a link to ~/.ssh onto a path that was just asked about
// (and did not exist). The next call must be judged by the disk as it is now, not by the cache.
// Black-box with the real filesystem server, judged by the disk.

describe("a folder moved by an allowed call", () => {
  it("is seen by the next call's judgement, within the cache's second", async () => {
    const { home, env } = sandbox();
    const repo = join(home, "proj", "repo");
    mkdirSync(join(repo, "box"), { recursive: true });
    mkdirSync(join(home, ".ssh"));
    symlinkSync("../../../.ssh", join(repo, "box", "inner"));
    const keys = join(home, ".ssh", "authorized_keys");
    writeFileSync(keys, "mine\n");
    writeFileSync(join(home, ".ssh", "id_rsa"), "SECRET\n");
    const client = await sdkClient(["--level", "enforce", "--", process.execPath, FILESYSTEM, home], {
      env,
      cwd: home,
      name: "resolver-after-move",
    });
    const texts: string[] = [];
    try {
      // Prime the cache: the path does not exist yet, so it names itself.
      await client.callTool({
        name: "read_text_file",
        arguments: { path: join(repo, "lnk", "inner", "id_rsa") },
      });
      const moved = await client.callTool({
        name: "move_file",
        arguments: { source: join(repo, "box"), destination: join(repo, "lnk") },
      });
      expect(moved.isError).toBeFalsy();
      for (const call of [
        { name: "read_text_file", arguments: { path: join(repo, "lnk", "inner", "id_rsa") } },
        {
          name: "write_file",
          arguments: { path: join(repo, "lnk", "inner", "authorized_keys"), content: "attacker\n" },
        },
      ]) {
        const r = await client.callTool(call);
        expect(r.isError, call.name).toBe(true);
        texts.push(JSON.stringify(r.content));
      }
    } finally {
      await client.close();
    }
    expect(texts.join("\n")).not.toContain("SECRET");
    expect(readFileSync(keys, "utf8")).toBe("mine\n");
  });
});
