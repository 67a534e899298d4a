// Asking at --level strict, black-box through the built CLI and a recording server, judged by
// what reached the server and the disk. In the chat: the official SDK client answers effectgate's
// elicitation (an explicit yes, a no, an unticked box, a form filled with its defaults, a
// question left unanswered); a raw client sends the empty accepts some clients send. Out of band:
// a client that cannot be asked, and a second process running `effectgate pending` and
// `effectgate allow`.
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync } from "node:fs";
import { join } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { ElicitRequestSchema, type ElicitResult } from "@modelcontextprotocol/sdk/types.js";
import { describe, expect, it } from "vitest";
import { CLI, RawClient, RECORDING_SERVER, received, sandbox, sdkClient } from "./harness.js";

type Asked = { message: string; requestedSchema: Record<string, unknown> };
type Answer = ElicitResult | "never";

const STRICT = ["--level", "strict", "--", process.execPath, RECORDING_SERVER];

/** The SDK client, declaring elicitation; each question is recorded and answered with `answer`. */
async function askedClient(
  env: NodeJS.ProcessEnv,
  answer: Answer,
  capability: Record<string, unknown> = {},
): Promise<{ client: Client; asked: Asked[] }> {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [CLI, ...STRICT],
    env: env as Record<string, string>,
    stderr: "ignore",
  });
  const client = new Client(
    { name: "effectgate-e2e", version: "1" },
    { capabilities: { elicitation: capability } },
  );
  const asked: Asked[] = [];
  client.setRequestHandler(ElicitRequestSchema, (req) => {
    asked.push(req.params as unknown as Asked);
    return answer === "never" ? new Promise<ElicitResult>(() => {}) : Promise.resolve(answer);
  });
  await client.connect(transport);
  return { client, asked };
}

const calls = (record: string): unknown[] =>
  received(record)
    .filter((m) => m.method === "tools/call")
    .map((m) => m.id);

function textOf(r: unknown): string {
  return ((r as { content: Array<{ text: string }> }).content[0] as { text: string }).text;
}

function project(home: string): { dir: string; manifest: string } {
  const dir = join(home, "proj");
  // A confirm-class write in an untainted session (paths.confirm **/.vscode/tasks.json).
  mkdirSync(join(dir, ".vscode"), { recursive: true });
  return { dir, manifest: join(dir, ".vscode", "tasks.json") };
}

describe("strict asks in the chat with one required boolean, and only an explicit yes counts", () => {
  it("an explicit yes lets the call through; the question names the exact effect", async () => {
    const { home, env, record } = sandbox();
    const { manifest } = project(home);
    const { client, asked } = await askedClient(env, { action: "accept", content: { allow: true } });
    const r = await client.callTool({ name: "write_file", arguments: { path: manifest, content: "{}" } });
    await client.close();

    expect(r.isError).toBeFalsy();
    expect(existsSync(manifest)).toBe(true);
    expect(calls(record)).toHaveLength(1);
    expect(asked).toHaveLength(1);
    const q = asked[0] as Asked;
    expect(q.message).toContain(`It would:\n- write ${manifest}\n`);
    expect(q.requestedSchema).toMatchObject({
      type: "object",
      properties: { allow: { type: "boolean", title: "Allow this call?", default: false } },
      required: ["allow"],
    });
  });

  it("a yes for this session is remembered for the same effect only; another path is asked again", async () => {
    const { home, env, record } = sandbox();
    const { manifest } = project(home);
    const other = join(home, "other", ".vscode", "tasks.json");
    mkdirSync(join(home, "other", ".vscode"), { recursive: true });
    const { client, asked } = await askedClient(env, {
      action: "accept",
      content: { allow: true, remember: "this session" },
    });
    const write = (path: string) =>
      client.callTool({ name: "write_file", arguments: { path, content: "{}" } });
    expect((await write(manifest)).isError).toBeFalsy();
    expect((await write(manifest)).isError).toBeFalsy();
    expect(asked).toHaveLength(1);
    expect((await write(other)).isError).toBeFalsy();
    await client.close();
    expect(asked).toHaveLength(2);
    expect(asked[1]?.message).toContain(`- write ${other}\n`);
    expect(calls(record)).toHaveLength(3);
  });

  it.each<[string, Answer, Record<string, unknown>]>([
    ["a decline", { action: "decline" }, {}],
    ["a cancel", { action: "cancel" }, {}],
    ["an accept with the box unticked", { action: "accept", content: { allow: false } }, {}],
    // A client that fills a form with its defaults and accepts it by itself: the default is no.
    [
      "an empty accept the SDK fills with the form's defaults",
      { action: "accept", content: {} },
      { form: { applyDefaults: true } },
    ],
  ])("%s is a no: refused, and the server never sees the call", async (_, answer, capability) => {
    const { home, env, record } = sandbox();
    const { manifest } = project(home);
    const { client, asked } = await askedClient(env, answer, capability);
    const r = await client.callTool({ name: "write_file", arguments: { path: manifest, content: "{}" } });
    await client.close();

    expect(asked).toHaveLength(1);
    expect(r.isError).toBe(true);
    expect(textOf(r)).toContain("the user did not allow it");
    expect(existsSync(manifest)).toBe(false);
    expect(calls(record)).toEqual([]);
  });

  it("a flood of questions in the chat: each is its own, and only the one said yes to goes through", async () => {
    const { home, env, record } = sandbox();
    const paths = Array.from({ length: 8 }, (_, i) => join(home, `p${i}`, ".vscode", "tasks.json"));
    for (const p of paths) mkdirSync(join(p, ".."), { recursive: true });
    const chosen = paths[3] as string;
    const { client, asked } = await askedClient(env, "never");
    // Yes to the question about `chosen` only; every other question is declined.
    client.setRequestHandler(ElicitRequestSchema, (req) => {
      const q = req.params as unknown as Asked;
      asked.push(q);
      const yes = q.message.includes(`- write ${chosen}\n`);
      return Promise.resolve(yes ? { action: "accept", content: { allow: true } } : { action: "decline" });
    });
    const results = await Promise.all(
      paths.map((path) => client.callTool({ name: "write_file", arguments: { path, content: "{}" } })),
    );
    await client.close();

    expect(asked).toHaveLength(paths.length);
    expect(results.map((r) => r.isError === true)).toEqual(paths.map((p) => p !== chosen));
    expect(paths.filter((p) => existsSync(p))).toEqual([chosen]);
    expect(calls(record)).toHaveLength(1);
  });

  it("a question nobody answers is a no once the timeout passes", async () => {
    const { home, env, record } = sandbox();
    const { manifest } = project(home);
    const { client } = await askedClient({ ...env, EFFECTGATE_ASK_TIMEOUT_MS: "1000" }, "never");
    const r = await client.callTool({ name: "write_file", arguments: { path: manifest, content: "{}" } });
    await client.close();

    expect(r.isError).toBe(true);
    expect(textOf(r)).toContain("the question went unanswered");
    expect(existsSync(manifest)).toBe(false);
    expect(calls(record)).toEqual([]);
  });

  it.each([
    ["content {}", { action: "accept", content: {} }],
    ["no content", { action: "accept" }],
    ["allow as the string true", { action: "accept", content: { allow: "true" } }],
  ])("an accept with %s (a form the client could not render) is a no", async (_, result) => {
    const { home, env, record } = sandbox();
    const { manifest } = project(home);
    const c = new RawClient(STRICT, env);
    await c.request({
      id: 0,
      method: "initialize",
      params: {
        protocolVersion: "2025-11-25",
        capabilities: { elicitation: {} },
        clientInfo: { name: "e2e", version: "1" },
      },
    });
    c.send({ jsonrpc: "2.0", method: "notifications/initialized" });
    c.send({
      jsonrpc: "2.0",
      id: 1,
      method: "tools/call",
      params: { name: "write_file", arguments: { path: manifest, content: "{}" } },
    });
    const ask = await c.next();
    expect(ask.method).toBe("elicitation/create");
    c.send({ jsonrpc: "2.0", id: ask.id, result });
    const r = await c.next();
    expect(await c.close()).toBe(0);

    expect(r.id).toBe(1);
    expect(textOf(r.result)).toContain("which is not a yes");
    expect(existsSync(manifest)).toBe(false);
    expect(calls(record)).toEqual([]);
  });
});

/** The CLI as a second process, as a person in another terminal runs it. */
function cli(
  env: NodeJS.ProcessEnv,
  ...args: string[]
): { status: number | null; stdout: string; stderr: string } {
  const r = spawnSync(process.execPath, [CLI, ...args], { env, encoding: "utf8" });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

interface Waiting {
  id: string;
  tool: string;
  effects: Array<{ verb: string; target: string }>;
}

function pending(env: NodeJS.ProcessEnv): Waiting[] {
  const r = cli(env, "pending", "--json");
  expect(r.status, r.stderr).toBe(0);
  return JSON.parse(r.stdout) as Waiting[];
}

describe("out of band: a client that cannot be asked, answered by `effectgate allow` in another process", () => {
  it("the refusal names an id; allow ID lets exactly that effect through once, and no other", async () => {
    const { home, env, record } = sandbox();
    const { dir, manifest } = project(home);
    const other = join(dir, "sub", ".vscode", "tasks.json");
    const client = await sdkClient(STRICT, { env });
    const write = (path: string) =>
      client.callTool({ name: "write_file", arguments: { path, content: "{}" } });

    const first = await write(manifest);
    expect(first.isError).toBe(true);
    const waits = pending(env);
    expect(waits).toHaveLength(1);
    const q = waits[0] as Waiting;
    expect(q.tool).toBe("write_file");
    expect(q.effects).toEqual([{ verb: "write", target: manifest }]);
    expect(textOf(first)).toContain(`effectgate allow ${q.id}`);
    expect(cli(env, "pending").stdout).toContain(`  write ${manifest}\n`);

    const allowed = cli(env, "allow", q.id);
    expect(allowed.status, allowed.stderr).toBe(0);
    expect(pending(env)).toEqual([]);

    // A grant for one write is refused for another: that one waits under a new id.
    const another = await write(other);
    expect(another.isError).toBe(true);
    const second = pending(env);
    expect(second.map((w) => w.effects)).toEqual([[{ verb: "write", target: other }]]);
    expect(second[0]?.id).not.toBe(q.id);

    const retry = await write(manifest);
    expect(retry.isError).toBeFalsy();
    // Once: the same call again is asked about anew.
    const again = await write(manifest);
    expect(again.isError).toBe(true);
    await client.close();

    expect(existsSync(manifest)).toBe(true);
    expect(existsSync(other)).toBe(false);
    expect(calls(record)).toHaveLength(1);
  });

  it("allow ID --for lets every call with that effect through until it expires", async () => {
    const { home, env, record } = sandbox();
    const { manifest } = project(home);
    const client = await sdkClient(STRICT, { env });
    const write = () => client.callTool({ name: "write_file", arguments: { path: manifest, content: "{}" } });
    expect((await write()).isError).toBe(true);
    const [q] = pending(env);
    expect(cli(env, "allow", (q as Waiting).id, "--for", "10m").status).toBe(0);
    expect((await write()).isError).toBeFalsy();
    expect((await write()).isError).toBeFalsy();
    await client.close();
    expect(calls(record)).toHaveLength(2);
  });

  it("a 2026-07-28 client that declares no elicitation is answered out of band too", async () => {
    const { home, env, record } = sandbox();
    const { manifest } = project(home);
    const c = new RawClient(STRICT, env);
    // With elicitation declared it would be asked in the result (asking-modern.test.ts).
    const meta = {
      "io.modelcontextprotocol/protocolVersion": "2026-07-28",
      "io.modelcontextprotocol/clientCapabilities": { elicitation: { url: {} } },
    };
    const write = (id: number) =>
      c.request({
        id,
        method: "tools/call",
        params: { name: "write_file", arguments: { path: manifest, content: "{}" }, _meta: meta },
      });
    const first = await write(1);
    expect(first.result).toMatchObject({ resultType: "complete", isError: true });
    const [q] = pending(env);
    expect(textOf(first.result)).toContain(`effectgate allow ${(q as Waiting).id}`);
    expect(cli(env, "allow", (q as Waiting).id).status).toBe(0);
    const retry = await write(2);
    expect(await c.close()).toBe(0);

    expect((retry.result as { isError?: boolean }).isError).toBeUndefined();
    expect(existsSync(manifest)).toBe(true);
    expect(calls(record)).toEqual([2]);
  });

  it("the model cannot write itself a grant: the asks folder is effectgate's own", async () => {
    const { home, env, record } = sandbox();
    const { manifest } = project(home);
    const client = await sdkClient(STRICT, { env });
    expect(
      (await client.callTool({ name: "write_file", arguments: { path: manifest, content: "{}" } })).isError,
    ).toBe(true);
    const [q] = pending(env);
    const forged = join(env.EFFECTGATE_HOME as string, "asks", "grants", `${(q as Waiting).id}.json`);
    const r = await client.callTool({ name: "write_file", arguments: { path: forged, content: "{}" } });
    await client.close();
    expect(r.isError).toBe(true);
    expect(textOf(r)).toContain("effectgate refused this call");
    expect(existsSync(forged)).toBe(false);
    expect(calls(record)).toEqual([]);
  });

  it("allow refuses an id that waits for nothing, and a bad --for, naming what was expected", () => {
    const { env } = sandbox();
    const none = cli(env, "allow", "0badc0de");
    expect(none.status).toBe(1);
    expect(none.stderr).toContain("no question waits as 0badc0de");
    const bad = cli(env, "allow", "0badc0de", "--for", "forever");
    expect(bad.status).toBe(2);
    expect(bad.stderr).toContain(
      '--for: expected a duration such as 90s, 10m or 2h, at most 24h, got "forever"',
    );
    const id = cli(env, "allow", "../x");
    expect(id.status).toBe(2);
    expect(id.stderr).toContain('expected an id of 8 hex digits (see effectgate pending), got "../x"');
    expect(cli(env, "pending").stdout).toBe("no questions wait\n");
  });
});
