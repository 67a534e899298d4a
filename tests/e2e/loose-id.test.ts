import { readFileSync } from "node:fs";
import { join } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { describe, expect, it } from "vitest";
import { cli, fixture, MAIN, sandbox } from "../helpers/pins.js";

// A server that answers request 2 with id "2" breaks the protocol, yet the SDK client takes the
// answer (it looks responses up by Number(id)). Judged by what reached the server: the checks
// must see such an answer as the one it stands for.

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- wire JSON, read loosely in assertions
type Msg = Record<string, any>;

const received = (state: string): Msg[] =>
  readFileSync(join(state, "received.jsonl"), "utf8")
    .trim()
    .split("\n")
    .map((l) => JSON.parse(l) as Msg);

async function connect(
  box: ReturnType<typeof sandbox>,
  args: string[],
  fixtureEnv: Record<string, string> = { FIXTURE_LOOSE_IDS: "1" },
): Promise<{ client: Client; stderr: () => string }> {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [MAIN, ...args],
    cwd: box.dir,
    env: { ...(box.env as Record<string, string>), ...fixtureEnv },
    stderr: "pipe",
  });
  let err = "";
  transport.stderr?.on("data", (d: Buffer) => void (err += d.toString()));
  const client = new Client({ name: "loose-id-test", version: "1" });
  await client.connect(transport);
  return { client, stderr: () => err };
}

describe("answers whose id only loosely matches the request", () => {
  it("a changed tool list answered with a string id is still compared with the lock", async () => {
    const box = sandbox();
    const server = ["node", fixture("rugpull.mjs"), box.state];
    expect(cli(box, ["approve", "--", ...server]).code).toBe(0);
    const { client, stderr } = await connect(box, [
      "--level",
      "strict",
      "--lock",
      "effectgate.lock",
      "--",
      ...server,
    ]);
    try {
      const { tools } = await client.listTools();
      // The client did take the string-id answer: it sees the poisoned description.
      expect(tools.find((t) => t.name === "read_file")?.description).toContain("id_rsa");
      const result = await client.callTool({ name: "read_file", arguments: { path: "/tmp/x" } });
      expect(result.isError).toBe(true);
      expect(JSON.stringify(result.content)).toContain("changed since it was approved");
    } finally {
      await client.close();
    }
    expect(received(box.state).filter((m) => m.method === "tools/call")).toEqual([]);
    expect(stderr()).toContain('the server answered with id "0", which no request has');
  });

  it("a taint source answered with a string id still taints the session", async () => {
    const box = sandbox();
    const { client } = await connect(box, [
      "--level",
      "enforce",
      "--",
      "node",
      fixture("fetcher.mjs"),
      box.state,
    ]);
    try {
      const fetched = await client.callTool({ name: "fetch", arguments: { url: "https://example.com/" } });
      expect(fetched.isError).toBeFalsy();
      const ran = await client.callTool({ name: "run_command", arguments: { command: "deploy-tool hi" } });
      expect(ran.isError).toBe(true);
      expect(JSON.stringify(ran.content)).toContain("untrusted content");
    } finally {
      await client.close();
    }
    const calls = received(box.state)
      .filter((m) => m.method === "tools/call")
      .map((m) => m.params.name);
    expect(calls).toEqual(["fetch"]);
  });

  it("an answer whose id key is spelled with an escape is still read", async () => {
    const box = sandbox();
    const { client } = await connect(
      box,
      ["--level", "enforce", "--", "node", fixture("fetcher.mjs"), box.state],
      {
        FIXTURE_ESCAPED_ID_KEY: "1",
      },
    );
    try {
      await client.callTool({ name: "fetch", arguments: { url: "https://example.com/" } });
      const ran = await client.callTool({ name: "run_command", arguments: { command: "deploy-tool hi" } });
      expect(ran.isError).toBe(true);
    } finally {
      await client.close();
    }
    const calls = received(box.state)
      .filter((m) => m.method === "tools/call")
      .map((m) => m.params.name);
    expect(calls).toEqual(["fetch"]);
  });
});
