// Asking at --level strict in a 2026-07-28 session, black-box through the built CLI with a raw
// client and a recording server, judged by what reached the server and the disk. effectgate
// answers the held call with `input_required`; the client's retry (a new id) carries the answer
// and the sealed requestState (docs/decisions/0123-asking-in-the-result.md).
import { existsSync, mkdirSync, rmSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { CLI, RawClient, RECORDING_SERVER, received, sandbox } from "./harness.js";

const STRICT = ["--level", "strict", "--", process.execPath, RECORDING_SERVER];
const META = {
  "io.modelcontextprotocol/protocolVersion": "2026-07-28",
  "io.modelcontextprotocol/clientInfo": { name: "modern-e2e", version: "1" },
  "io.modelcontextprotocol/clientCapabilities": { elicitation: {} },
};

type Msg = Record<string, unknown>;
type Question = {
  resultType: string;
  inputRequests: Record<string, { method: string; params: { message: string; requestedSchema: unknown } }>;
  requestState: string;
};

const homes: string[] = [];
afterEach(() => {
  for (const h of homes.splice(0)) rmSync(h, { recursive: true, force: true });
});

function setup(extra: NodeJS.ProcessEnv = {}): {
  env: NodeJS.ProcessEnv;
  record: string;
  manifest: string;
  other: string;
  c: RawClient;
} {
  const { home, env: base, record } = sandbox();
  const env = { ...base, ...extra };
  homes.push(home);
  // A confirm-class write in an untainted session (paths.confirm **/.vscode/tasks.json).
  mkdirSync(join(home, "proj", ".vscode"), { recursive: true });
  mkdirSync(join(home, "other", ".vscode"), { recursive: true });
  return {
    env,
    record,
    manifest: join(home, "proj", ".vscode", "tasks.json"),
    other: join(home, "other", ".vscode", "tasks.json"),
    c: new RawClient(STRICT, env),
  };
}

function write(c: RawClient, id: number, path: string, extra: Msg = {}, meta: Msg = META): Promise<Msg> {
  return c.request({
    id,
    method: "tools/call",
    params: { name: "write_file", arguments: { path, content: "{}" }, _meta: meta, ...extra },
  });
}

const retryWith = (q: Question, answer: unknown): Msg => ({
  requestState: q.requestState,
  inputResponses: { effectgate_approval: answer },
});
const yes = (remember?: string): Msg => ({
  action: "accept",
  content: { allow: true, ...(remember === undefined ? {} : { remember }) },
});

/** The tools/call frames the server received. */
const calls = (record: string): Array<{ id?: unknown; params?: Record<string, unknown> }> =>
  received(record).filter((m) => m.method === "tools/call") as Array<{
    id?: unknown;
    params?: Record<string, unknown>;
  }>;

function questionOf(m: Msg): Question {
  const r = m.result as Question;
  expect(r.resultType).toBe("input_required");
  return r;
}

function refusalText(m: Msg): string {
  const r = m.result as { isError?: boolean; resultType?: string; content: Array<{ text: string }> };
  expect(r).toMatchObject({ isError: true, resultType: "complete" });
  return r.content[0]?.text ?? "";
}

describe("strict in a 2026-07-28 session asks in the result, and the retry carries the answer", () => {
  it("an explicit yes: the retry reaches the server once, without effectgate's members; the held original never does", async () => {
    const { record, manifest, c } = setup();
    const q = questionOf(await write(c, 1, manifest));
    const asked = q.inputRequests["effectgate_approval"];
    expect(asked?.method).toBe("elicitation/create");
    expect(asked?.params.message).toContain(`It would:\n- write ${manifest}\n`);
    expect(asked?.params.requestedSchema).toMatchObject({ required: ["allow"] });
    expect(calls(record)).toEqual([]);

    const done = await write(c, 2, manifest, retryWith(q, yes()));
    expect(done.id).toBe(2);
    expect((done.result as { isError?: boolean }).isError).toBeUndefined();
    expect(await c.close()).toBe(0);

    expect(existsSync(manifest)).toBe(true);
    const got = calls(record);
    expect(got.map((m) => m.id)).toEqual([2]);
    expect(got[0]?.params).not.toHaveProperty("requestState");
    expect(got[0]?.params).not.toHaveProperty("inputResponses");
    expect(got[0]?.params?._meta).toEqual(META);
  });

  it("a no, an empty accept, an unticked box and a missing answer are refused; nothing reaches the server", async () => {
    const { record, manifest, c } = setup();
    const answers: unknown[] = [
      { action: "decline" },
      { action: "accept", content: {} },
      { action: "accept" },
      { action: "accept", content: { allow: false, remember: "this session" } },
      { action: "cancel" },
      undefined,
    ];
    let id = 0;
    for (const answer of answers) {
      const q = questionOf(await write(c, ++id, manifest));
      const extra: Msg = answer === undefined ? { requestState: q.requestState } : retryWith(q, answer);
      expect(refusalText(await write(c, ++id, manifest, extra))).toContain("effectgate asked the user");
    }
    expect(await c.close()).toBe(0);
    expect(existsSync(manifest)).toBe(false);
    expect(calls(record)).toEqual([]);
  });

  it("a forged, altered, replayed or re-aimed state is a no", async () => {
    const { record, manifest, other, c } = setup();
    // Altered: one character of the seal changed.
    const q1 = questionOf(await write(c, 1, manifest));
    const s = q1.requestState;
    const altered = { ...q1, requestState: s.slice(0, -2) + (s.at(-2) === "A" ? "B" : "A") + s.slice(-1) };
    expect(refusalText(await write(c, 2, manifest, retryWith(altered, yes())))).toContain(
      "forged or altered",
    );
    // Forged from nothing, in effectgate's own format.
    const forged = { ...q1, requestState: "effectgate.v1.eyJub25jZSI6IngifQ.AAAA" };
    expect(refusalText(await write(c, 3, manifest, retryWith(forged, yes())))).toContain("forged or altered");
    // Re-aimed: a state for one path on a retry that writes another.
    const q2 = questionOf(await write(c, 4, manifest));
    expect(refusalText(await write(c, 5, other, retryWith(q2, yes())))).toContain(
      "does not repeat the call that was asked about",
    );
    // Replayed: a state that already let one call through lets no other.
    const q3 = questionOf(await write(c, 6, manifest));
    const first = await write(c, 7, manifest, retryWith(q3, yes()));
    expect((first.result as { isError?: boolean }).isError).toBeUndefined();
    expect(refusalText(await write(c, 8, manifest, retryWith(q3, yes())))).toContain("already used");
    expect(await c.close()).toBe(0);

    expect(existsSync(other)).toBe(false);
    expect(calls(record).map((m) => m.id)).toEqual([7]);
  });

  it("a flood of questions: each state answers its own call, and only the yes goes through", async () => {
    const { record, manifest, c } = setup();
    const home = join(manifest, "..", "..", "..");
    const paths = Array.from({ length: 8 }, (_, i) => join(home, `p${i}`, ".vscode", "tasks.json"));
    for (const p of paths) mkdirSync(join(p, ".."), { recursive: true });
    const chosen = paths[3] as string;
    const questions: Question[] = [];
    for (const [i, p] of paths.entries()) questions.push(questionOf(await write(c, i + 1, p)));
    const answers = [];
    for (const [i, p] of paths.entries()) {
      const answer = p === chosen ? yes() : { action: "decline" };
      answers.push(await write(c, 100 + i, p, retryWith(questions[i] as Question, answer)));
    }
    expect(await c.close()).toBe(0);
    expect(answers.map((a) => (a.result as { isError?: boolean }).isError === true)).toEqual(
      paths.map((p) => p !== chosen),
    );
    expect(paths.filter((p) => existsSync(p))).toEqual([chosen]);
    expect(calls(record).map((m) => m.id)).toEqual([103]);
  });

  it("a retry after the question expired is a no, even with an explicit yes", async () => {
    // The sealed state expires with the question (EFFECTGATE_ASK_TIMEOUT_MS); the retry comes later.
    const { record, manifest, c } = setup({ EFFECTGATE_ASK_TIMEOUT_MS: "1000" });
    const q = questionOf(await write(c, 1, manifest));
    await new Promise((r) => setTimeout(r, 1500));
    expect(refusalText(await write(c, 2, manifest, retryWith(q, yes())))).toContain(
      "the question expired before the answer came",
    );
    expect(await c.close()).toBe(0);
    expect(existsSync(manifest)).toBe(false);
    expect(calls(record)).toEqual([]);
  });

  it("a client that declares no elicitation is answered out of band, as before", async () => {
    const { record, manifest, c } = setup();
    const meta = { ...META, "io.modelcontextprotocol/clientCapabilities": {} };
    const r = await write(c, 1, manifest, {}, meta);
    expect(refusalText(r)).toContain("effectgate allow ");
    expect(await c.close()).toBe(0);
    expect(calls(record)).toEqual([]);
  });

  it("a yes for this session lets the same effect through unasked, and asks again for another path", async () => {
    const { record, manifest, other, c } = setup();
    const q = questionOf(await write(c, 1, manifest));
    const r2 = await write(c, 2, manifest, retryWith(q, yes("this session")));
    expect((r2.result as { isError?: boolean }).isError).toBeUndefined();
    // The same effect again, a fresh call: no question.
    const r3 = await write(c, 3, manifest);
    expect(r3.result).toMatchObject({ resultType: "complete", content: [{ text: `wrote ${manifest}` }] });
    // Another path is another effect: asked.
    questionOf(await write(c, 4, other));
    expect(await c.close()).toBe(0);
    expect(calls(record).map((m) => m.id)).toEqual([2, 3]);
    expect(existsSync(other)).toBe(false);
  });

  it.each([
    ["an explicit yes lets the call through once", { allow: true }, true],
    ["an unticked box is refused", { allow: false }, false],
  ])("the official SDK client (2.x, 2026-07-28, auto-fulfilled): %s", async (_, content, passes) => {
    const { env, record, manifest } = setup();
    const { Client } = await import("@modelcontextprotocol/client");
    const { StdioClientTransport } = await import("@modelcontextprotocol/client/stdio");
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [CLI, ...STRICT],
      env: env as Record<string, string>,
      stderr: "ignore",
    });
    const client = new Client(
      { name: "sdk-modern-e2e", version: "1" },
      {
        capabilities: { elicitation: { form: {} } },
        versionNegotiation: { mode: { pin: "2026-07-28" } },
        inputRequired: { autoFulfill: true },
      },
    );
    const asked: string[] = [];
    client.setRequestHandler("elicitation/create", (req) => {
      asked.push(String((req.params as { message?: unknown }).message));
      return Promise.resolve({ action: "accept" as const, content });
    });
    await client.connect(transport);
    const r = await client.callTool({ name: "write_file", arguments: { path: manifest, content: "{}" } });
    await client.close();

    expect(asked).toHaveLength(1);
    expect(asked[0]).toContain(`- write ${manifest}`);
    expect(r.isError === true).toBe(!passes);
    expect(existsSync(manifest)).toBe(passes);
    // The held original never reached the server; the approved retry did, once.
    expect(calls(record)).toHaveLength(passes ? 1 : 0);
  });
});

describe("an approved retry too large to read whole", () => {
  it("is refused, never re-sent from what was read of it (decision 0144)", async () => {
    const { record, manifest, c } = setup();
    // Over the log's whole-frame limit: read cut, so its params are not all the client sent. Its
    // `_meta` and the answer come first: after 4 Mi characters, objects that deep are cut short.
    const content = "x".repeat(17 * 1024 * 1024);
    const big = (id: number, extra: Msg = {}): Promise<Msg> =>
      c.request({
        id,
        method: "tools/call",
        params: { _meta: META, ...extra, name: "write_file", arguments: { path: manifest, content } },
      });
    const q = questionOf(await big(1));
    expect(refusalText(await big(2, retryWith(q, yes())))).toContain("too large to read whole");
    expect(await c.close()).toBe(0);
    expect(existsSync(manifest)).toBe(false);
    expect(calls(record)).toEqual([]);
  }, 60_000);
});
