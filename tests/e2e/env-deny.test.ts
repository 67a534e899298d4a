import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { envDenier } from "../../src/relay/gates/build-gates.js";
import { RawClient, sandbox } from "./harness.js";

describe("env.deny", () => {
  it("matches variable names by glob, without regard to case", () => {
    const denied = envDenier(["*_TOKEN", "AWS_SECRET_ACCESS_KEY"]);
    expect(denied("GITHUB_TOKEN")).toBe(true);
    expect(denied("github_token")).toBe(true);
    expect(denied("aws_secret_access_key")).toBe(true);
    expect(denied("TOKEN_URL")).toBe(false);
    expect(envDenier([])("ANYTHING")).toBe(false);
  });

  it("the server never receives a denied variable; the log names it without its value", async () => {
    const { home, env } = sandbox();
    const policy = join(home, "policy.yaml");
    writeFileSync(policy, "version: 1\nenv:\n  deny: ['*_TOKEN']\n");
    const server = join(home, "env-server.mjs");
    // Answers every request with the names of the variables it was started with.
    writeFileSync(
      server,
      `process.stdin.on("data", (d) => { for (const l of String(d).split("\\n").filter(Boolean)) { const m = JSON.parse(l); if (m.id !== undefined) process.stdout.write(JSON.stringify({ jsonrpc: "2.0", id: m.id, result: { names: Object.keys(process.env) } }) + "\\n"); } });`,
    );
    const logDir = join(home, "logs");
    const c = new RawClient(["--policy", policy, "--log-dir", logDir, "--", process.execPath, server], {
      ...env,
      GITHUB_TOKEN: "ghp_secretvalue",
      KEEP_ME: "1",
    });
    const answer = await c.request({ id: 1, method: "ping" });
    await c.close();
    const names = (answer.result as { names: string[] }).names;
    expect(names).toContain("KEEP_ME");
    expect(names).not.toContain("GITHUB_TOKEN");
    const { readdirSync, readFileSync } = await import("node:fs");
    const log = readdirSync(logDir)
      .map((f) => readFileSync(join(logDir, f), "utf8"))
      .join("");
    expect(log).toContain("GITHUB_TOKEN");
    expect(log).not.toContain("ghp_secretvalue");
  });
});
