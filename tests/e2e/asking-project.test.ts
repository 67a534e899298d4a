// "Always in this project" (decision 0134), black-box through the built CLI, the official SDK
// client and a recording server, judged by what reached the server and the disk: a yes with
// that choice writes .effectgate/allow.yaml, a fresh relay is not asked again for that exact
// effect and is asked for another; `effectgate allow ID --project` from a second process does
// the same; a deny still denies with a grant present; the file is effectgate's own.
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { ElicitRequestSchema, type ElicitResult } from "@modelcontextprotocol/sdk/types.js";
import { describe, expect, it } from "vitest";
import { CLI, RawClient, RECORDING_SERVER, ROOT, received, sandbox, sdkClient } from "./harness.js";

const SERVER = ["--", process.execPath, RECORDING_SERVER];

/** The SDK client declaring elicitation, run in `cwd`; every question is recorded. */
async function askedClient(
  env: NodeJS.ProcessEnv,
  cwd: string,
  answer: ElicitResult,
  level = "strict",
): Promise<{ client: Client; asked: string[] }> {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [CLI, "--level", level, ...SERVER],
    cwd,
    env: env as Record<string, string>,
    stderr: "ignore",
  });
  const client = new Client({ name: "effectgate-e2e", version: "1" }, { capabilities: { elicitation: {} } });
  const asked: string[] = [];
  client.setRequestHandler(ElicitRequestSchema, (req) => {
    asked.push((req.params as { message: string }).message);
    return Promise.resolve(answer);
  });
  await client.connect(transport);
  return { client, asked };
}

const ALWAYS: ElicitResult = {
  action: "accept",
  content: { allow: true, remember: "always in this project" },
};
const NO: ElicitResult = { action: "decline" };

function project(home: string): { dir: string; tasks: string; other: string; file: string } {
  const dir = join(home, "proj");
  // Confirm-class writes in an untainted session (paths.confirm **/.vscode/tasks.json).
  mkdirSync(join(dir, ".vscode"), { recursive: true });
  mkdirSync(join(dir, "sub", ".vscode"), { recursive: true });
  return {
    dir,
    tasks: join(dir, ".vscode", "tasks.json"),
    other: join(dir, "sub", ".vscode", "tasks.json"),
    file: join(dir, ".effectgate", "allow.yaml"),
  };
}

const write = (client: Client, path: string) =>
  client.callTool({ name: "write_file", arguments: { path, content: "{}" } });

const calls = (record: string): number => received(record).filter((m) => m.method === "tools/call").length;

function cli(env: NodeJS.ProcessEnv, cwd: string, ...args: string[]) {
  const r = spawnSync(process.execPath, [CLI, ...args], { env, cwd, encoding: "utf8" });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

/** Every decision record of every session log, oldest log first. */
function decisions(env: NodeJS.ProcessEnv): Record<string, unknown>[] {
  const dir = join(env.EFFECTGATE_HOME as string, "sessions");
  return readdirSync(dir, { recursive: true, encoding: "utf8" })
    .filter((f) => f.endsWith(".jsonl"))
    .sort()
    .flatMap((f) => readFileSync(join(dir, f), "utf8").split("\n").filter(Boolean))
    .map((l) => JSON.parse(l) as { type?: string; ev?: string; data?: Record<string, unknown> })
    .filter((r) => r.type === "event" && r.ev === "decision")
    .map((r) => r.data as Record<string, unknown>);
}

describe("always in this project, answered in the chat", () => {
  it("writes the exact effect to .effectgate/allow.yaml; a fresh relay allows it unasked and asks for another", async () => {
    const { home, env, record } = sandbox();
    const p = project(home);
    const first = await askedClient(env, p.dir, ALWAYS);
    expect((await write(first.client, p.tasks)).isError).toBeFalsy();
    await first.client.close();
    expect(first.asked).toHaveLength(1);

    const text = readFileSync(p.file, "utf8");
    expect(text).toContain(`      - "write ${p.tasks}"\n`);
    expect(text).toContain(`    root: "${p.dir}"\n`);
    expect(text).toMatch(/ {4}key: "[0-9a-f]{64}"\n/);
    expect(text).toContain('  - tool: "write_file"\n');
    if (process.platform !== "win32") expect(readdirSync(join(p.dir, ".effectgate"))).toEqual(["allow.yaml"]);

    // A new session with a fresh relay: the same effect is not asked about; another path is.
    const second = await askedClient(env, p.dir, NO);
    expect((await write(second.client, p.tasks)).isError).toBeFalsy();
    expect(second.asked).toEqual([]);
    const other = await write(second.client, p.other);
    await second.client.close();
    expect(other.isError).toBe(true);
    expect(second.asked).toHaveLength(1);
    expect(second.asked[0]).toContain(`- write ${p.other}\n`);
    expect(existsSync(p.other)).toBe(false);
    expect(calls(record)).toBe(2);

    const granted = decisions(env).filter((d) => d["grant"] !== undefined);
    expect(granted).toHaveLength(1);
    expect(granted[0]).toMatchObject({
      verdict: "confirm",
      outcome: "forward",
      level: "strict",
      grant: { scope: "project", file: p.file, line: 6 },
    });
    // replay names the grant on the call's line.
    const log = readdirSync(join(env.EFFECTGATE_HOME as string, "sessions")).sort();
    const shown = cli(
      env,
      p.dir,
      "replay",
      join(env.EFFECTGATE_HOME as string, "sessions", log[log.length - 1] as string),
    );
    expect(shown.stdout).toContain(`allowed always in this project by ${p.file}:6`);
  });

  it("at enforce a granted confirm goes through as a plain allow naming the grant", async () => {
    const { home, env, record } = sandbox();
    const p = project(home);
    const first = await askedClient(env, p.dir, ALWAYS);
    await write(first.client, p.tasks);
    await first.client.close();
    const enforce = await askedClient(env, p.dir, NO, "enforce");
    expect((await write(enforce.client, p.tasks)).isError).toBeFalsy();
    await enforce.client.close();
    expect(calls(record)).toBe(2);
    expect(decisions(env).at(-1)).toMatchObject({ level: "enforce", outcome: "forward", grant: { line: 6 } });
  });

  it("a deny still denies with a grant for the exact effect in the file", async () => {
    const { home, env, record } = sandbox();
    const p = project(home);
    const first = await askedClient(env, p.dir, ALWAYS);
    await write(first.client, p.tasks);
    await first.client.close();
    // The same policy with that file denied: the grant's key still fits the call.
    const policy = join(home, "deny-tasks.yaml");
    const shipped = readFileSync(join(ROOT, "policy", "default.yaml"), "utf8");
    const anchor = '    - "**/.effectgate/**" # sessions, baselines and shared taint state\n';
    expect(shipped).toContain(anchor);
    writeFileSync(policy, shipped.replace(anchor, `${anchor}    - "**/.vscode/tasks.json"\n`));
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [CLI, "--policy", policy, "--level", "strict", ...SERVER],
      cwd: p.dir,
      env: env as Record<string, string>,
      stderr: "ignore",
    });
    const client = new Client({ name: "effectgate-e2e", version: "1" });
    await client.connect(transport);
    const r = await write(client, p.tasks);
    await client.close();
    expect(r.isError).toBe(true);
    expect(calls(record)).toBe(1);
    const last = decisions(env).at(-1);
    expect(last).toMatchObject({ verdict: "deny", outcome: "refuse" });
    expect(last?.["grant"]).toBeUndefined();
  });
});

describe("always in this project, in a 2026-07-28 session (input_required)", () => {
  const META = {
    "io.modelcontextprotocol/protocolVersion": "2026-07-28",
    "io.modelcontextprotocol/clientInfo": { name: "modern-e2e", version: "1" },
    "io.modelcontextprotocol/clientCapabilities": { elicitation: {} },
  };
  type Msg = Record<string, unknown>;
  const call = (c: RawClient, id: number, path: string, extra: Msg = {}): Promise<Msg> =>
    c.request({
      id,
      method: "tools/call",
      params: { name: "write_file", arguments: { path, content: "{}" }, _meta: META, ...extra },
    });
  const resultType = (m: Msg): unknown => (m.result as { resultType?: unknown }).resultType;

  it("the retry's yes with 'always in this project' writes the grant; a fresh relay answers unasked", async () => {
    const { home, env, record } = sandbox();
    const p = project(home);
    const args = ["--level", "strict", ...SERVER];
    const c = new RawClient(args, env, p.dir);
    const q = (await call(c, 1, p.tasks)).result as { resultType: string; requestState: string };
    expect(q.resultType).toBe("input_required");
    const answer = { action: "accept", content: { allow: true, remember: "always in this project" } };
    const done = await call(c, 2, p.tasks, {
      requestState: q.requestState,
      inputResponses: { effectgate_approval: answer },
    });
    expect(resultType(done)).toBe("complete");
    expect(await c.close()).toBe(0);
    expect(readFileSync(p.file, "utf8")).toContain(`      - "write ${p.tasks}"\n`);

    const fresh = new RawClient(args, env, p.dir);
    const again = await call(fresh, 1, p.tasks);
    expect(again.result).toMatchObject({ resultType: "complete", content: [{ text: `wrote ${p.tasks}` }] });
    expect(resultType(await call(fresh, 2, p.other))).toBe("input_required");
    expect(await fresh.close()).toBe(0);
    expect(calls(record)).toBe(2);
  });
});

describe("always in this project, answered out of band", () => {
  it("allow ID --project from a second process lets the retry through and keeps the effect for new sessions", async () => {
    const { home, env, record } = sandbox();
    const p = project(home);
    const args = ["--level", "strict", ...SERVER];
    const client = await sdkClient(args, { env, cwd: p.dir });
    expect((await write(client, p.tasks)).isError).toBe(true);
    const waits = JSON.parse(cli(env, home, "pending", "--json").stdout) as { id: string }[];
    expect(waits).toHaveLength(1);
    const id = (waits[0] as { id: string }).id;
    const allowed = cli(env, home, "allow", id, "--project");
    expect(allowed.status, allowed.stderr).toBe(0);
    expect(allowed.stdout).toContain(`kept always in this project: ${p.file}:6`);
    expect(readFileSync(p.file, "utf8")).toContain(`by: "`);
    expect(readFileSync(p.file, "utf8")).toContain(`, effectgate allow ${id} --project"`);
    expect((await write(client, p.tasks)).isError).toBeFalsy();
    await client.close();

    const fresh = await sdkClient(args, { env, cwd: p.dir });
    expect((await write(fresh, p.tasks)).isError).toBeFalsy();
    expect((await write(fresh, p.other)).isError).toBe(true);
    await fresh.close();
    expect(calls(record)).toBe(2);

    const listed = cli(env, p.dir, "allow", "--list");
    expect(listed.status, listed.stderr).toBe(0);
    expect(listed.stdout).toContain(`always in this project (${p.file}):\n  line 6: write_file on `);
    expect(listed.stdout).toContain(`    write ${p.tasks}\n`);
  });

  it("allow --list shows a grant from allow ID --for with what it allows", async () => {
    const { home, env } = sandbox();
    const p = project(home);
    const client = await sdkClient(["--level", "strict", ...SERVER], { env, cwd: p.dir });
    await write(client, p.tasks);
    await client.close();
    const [q] = JSON.parse(cli(env, home, "pending", "--json").stdout) as { id: string }[];
    expect(cli(env, home, "allow", (q as { id: string }).id, "--for", "10m").status).toBe(0);
    const listed = cli(env, p.dir, "allow", "--list");
    expect(listed.stdout).toContain(`  ${(q as { id: string }).id} write_file on `);
    expect(listed.stdout).toContain(`every call until `);
    expect(listed.stdout).toContain(`    write ${p.tasks}\n`);
    expect(listed.stdout).toContain(`no grants for this project in ${p.file}`);
    const bad = cli(env, p.dir, "allow", "--list", (q as { id: string }).id);
    expect(bad.status).toBe(2);
    expect(cli(env, p.dir, "allow", "0badc0de", "--project", "--for", "1m").status).toBe(2);
  });
});

describe("the grant file is checked and guarded", () => {
  it("a malformed file stops the relay before the server starts, naming the file and line", () => {
    const { home, env, record } = sandbox();
    const p = project(home);
    mkdirSync(join(p.dir, ".effectgate"));
    writeFileSync(p.file, "version: 1\ngrants:\n  - tool: write_file\n    colour: blue\n");
    const r = spawnSync(process.execPath, [CLI, "--level", "strict", ...SERVER], {
      env,
      cwd: p.dir,
      input: "",
      encoding: "utf8",
    });
    expect(r.status).toBe(78);
    expect(r.stderr).toContain(`${p.file}:4: grants[0].colour: expected one of tool, server, method`);
    expect(r.stderr).toContain(`${p.file}:3: grants[0].server: expected a non-empty string, got nothing`);
    expect(received(record)).toEqual([]);
  });

  it("an entry of another project root is ignored, with a notice", async () => {
    const { home, env } = sandbox();
    const p = project(home);
    const first = await askedClient(env, p.dir, ALWAYS);
    await write(first.client, p.tasks);
    await first.client.close();
    writeFileSync(
      p.file,
      readFileSync(p.file, "utf8").replace(`root: "${p.dir}"`, 'root: "/somewhere/else"'),
    );
    const r = spawnSync(process.execPath, [CLI, "--level", "strict", ...SERVER], {
      env,
      cwd: p.dir,
      input: "",
      encoding: "utf8",
    });
    expect(r.stderr).toContain(`${p.file}:6: a grant for another project root ("/somewhere/else")`);
    const again = await askedClient(env, p.dir, NO);
    expect((await write(again.client, p.tasks)).isError).toBe(true);
    await again.client.close();
    expect(again.asked).toHaveLength(1);
  });

  it("the model cannot write the file, even under a policy without the .effectgate deny", async () => {
    const { home, env, record } = sandbox();
    const p = project(home);
    const policy = join(home, "no-dot-effectgate.yaml");
    const shipped = readFileSync(join(ROOT, "policy", "default.yaml"), "utf8");
    const loose = shipped.replace(/^ {4}- "\*\*\/\.effectgate\/\*\*".*\n/gm, "");
    expect(loose).not.toContain("**/.effectgate/**");
    writeFileSync(policy, loose);
    const client = await sdkClient(["--policy", policy, "--level", "enforce", ...SERVER], {
      env,
      cwd: p.dir,
    });
    const r = await write(client, p.file);
    const folder = await client.callTool({
      name: "write_file",
      arguments: { path: join(p.dir, ".effectgate"), content: "x" },
    });
    await client.close();
    expect(r.isError).toBe(true);
    expect(folder.isError).toBe(true);
    expect(existsSync(p.file)).toBe(false);
    expect(existsSync(join(p.dir, ".effectgate"))).toBe(false);
    expect(calls(record)).toBe(0);
  });

  it("check judges commands on the file as the relay does: direct ones denied, ones over the whole project left to the policy", () => {
    const { home, env } = sandbox();
    const p = project(home);
    const policy = join(home, "no-dot-effectgate.yaml");
    const shipped = readFileSync(join(ROOT, "policy", "default.yaml"), "utf8");
    writeFileSync(policy, shipped.replace(/^ {4}- "\*\*\/\.effectgate\/\*\*".*\n/gm, ""));
    const check = (command: string) =>
      cli(
        env,
        p.dir,
        "check",
        "--policy",
        policy,
        "--level",
        "enforce",
        "--tool",
        "run_command",
        "--args",
        JSON.stringify({ command }),
      );
    for (const command of [
      "echo x >> .effectgate/allow.yaml",
      "rm -rf .effectgate",
      "mv /tmp/x .effectgate",
    ]) {
      const r = check(command);
      expect(r.status, command).toBe(3);
      expect(r.stdout).toContain("(rule effectgate's own files, deny)");
    }
    for (const command of ["chmod -R u+w .", "find . -name '*.tmp' -delete"])
      expect(check(command).status, command).toBe(0);
  });
});
