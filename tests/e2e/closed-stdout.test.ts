import { spawn } from "node:child_process";
import { join } from "node:path";
import { describe, expect, it } from "vitest";

const MAIN = join(import.meta.dirname, "..", "..", "dist", "main.js");

describe("a subcommand whose reader has gone", () => {
  it("finishes with its own exit code and no stack trace", async () => {
    // The reader closes before anything is written, as `| head -0` would: every write fails.
    const child = spawn(
      process.execPath,
      [MAIN, "check", "--tool", "write_file", "--args", '{"path":"/tmp/x"}'],
      {
        stdio: ["ignore", "pipe", "pipe"],
      },
    );
    child.stdout.destroy();
    let stderr = "";
    child.stderr.on("data", (d: Buffer) => void (stderr += d.toString()));
    const code = await new Promise<number | null>((resolve) => child.on("exit", resolve));
    expect(stderr).toBe("");
    expect(code).toBe(0);
  });
});
