// Black-box: the BUILT CLI (node dist/main.js) over real stdio. Run `npm run build` first.
import { spawn } from "node:child_process";
import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { describe, expect, it } from "vitest";
import { recordFromLine } from "../../src/log/reader.js";
import { observeNotice, RELAY_HOW_TO_ENFORCE } from "../../src/core/gate/observe-notice.js";
import { fixture, isAlive, tempDir, testEnv } from "./helpers.js";

const ROOT = join(import.meta.dirname, "..", "..");
const MAIN = join(ROOT, "dist", "main.js");
const FS_SERVER = join(
  ROOT,
  "node_modules",
  "@modelcontextprotocol",
  "server-filesystem",
  "dist",
  "index.js",
);

function stringEnv(env: NodeJS.ProcessEnv): Record<string, string> {
  return Object.fromEntries(Object.entries(env).filter((e): e is [string, string] => e[1] !== undefined));
}

interface Ran {
  code: number | null;
  signal: string | null;
  stdout: Buffer;
  stderr: string;
}

/**
 * A raw client: writes each scripted line once the previous one has been answered (`waitFor`
 * newlines seen so far), then closes stdin and waits for the process to end.
 */
function scripted(
  cmd: string,
  args: string[],
  env: NodeJS.ProcessEnv,
  script: Array<{ line: string; answers: number }>,
  onPid?: (pid: number) => void,
): Promise<Ran> {
  return new Promise((resolve) => {
    const child = spawn(cmd, args, { env, stdio: ["pipe", "pipe", "pipe"] });
    if (child.pid) onPid?.(child.pid);
    const out: Buffer[] = [];
    let err = "";
    let newlines = 0;
    let expected = 0;
    let step = 0;
    const advance = (): void => {
      while (step < script.length && newlines >= expected) {
        const s = script[step++] as { line: string; answers: number };
        expected += s.answers;
        child.stdin.write(s.line);
      }
      if (step >= script.length && newlines >= expected) child.stdin.end();
    };
    child.stdout.on("data", (c: Buffer) => {
      out.push(c);
      for (const b of c) if (b === 0x0a) newlines++;
      advance();
    });
    child.stderr.on("data", (c: Buffer) => (err += c.toString("utf8")));
    child.on("close", (code, signal) => resolve({ code, signal, stdout: Buffer.concat(out), stderr: err }));
    advance();
  });
}

function logRecords(dir: string): Array<Record<string, unknown>> {
  const files = readdirSync(dir).filter((f) => f.endsWith(".jsonl"));
  return files.flatMap((f) =>
    readFileSync(join(dir, f), "utf8")
      .split("\n")
      .filter(Boolean)
      .map((l) => recordFromLine(l) as Record<string, unknown>),
  );
}

describe("effectgate CLI over real stdio", () => {
  it("carries an SDK client session with server-filesystem: initialize, list, write, read", async () => {
    const work = tempDir("eg-fs-");
    const logDir = tempDir("eg-logs-");
    writeFileSync(join(work, "hello.txt"), "hello\n");
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [MAIN, "--log-dir", logDir, "--name", "fs", "--", process.execPath, FS_SERVER, work],
      env: stringEnv(testEnv()),
      stderr: "pipe",
    });
    const client = new Client({ name: "eg-test", version: "1.0.0" });
    await client.connect(transport);
    const tools = await client.listTools();
    expect(tools.tools.map((t) => t.name)).toEqual(expect.arrayContaining(["read_text_file", "write_file"]));
    const wrote = await client.callTool({
      name: "write_file",
      arguments: { path: join(work, "new.txt"), content: "written through effectgate" },
    });
    expect(wrote.isError).toBeFalsy();
    expect(readFileSync(join(work, "new.txt"), "utf8")).toBe("written through effectgate");
    const read = (await client.callTool({
      name: "read_text_file",
      arguments: { path: join(work, "hello.txt") },
    })) as { content: Array<{ text: string }> };
    expect(read.content[0]?.text).toBe("hello\n");
    await client.close();
    const records = logRecords(logDir);
    expect(records[0]).toMatchObject({ type: "header", name: "fs" });
    expect(records[0]?.from).not.toBe("off");
    const hs = records.find((r) => r.type === "event" && r.ev === "handshake") as
      { data: Record<string, unknown> } | undefined;
    expect(hs?.data).toMatchObject({
      era: "legacy",
      clientInfo: { name: "eg-test" },
      serverInfo: { name: "secure-filesystem-server" },
      serverCapabilities: { tools: {} },
    });
    expect(records.at(-1)).toMatchObject({ type: "exit" });
  });

  it("the bytes a raw client receives through effectgate equal those it receives directly", async () => {
    const work = tempDir("eg-fs-");
    writeFileSync(join(work, "a.txt"), "alpha é\n");
    const script = [
      {
        line: '{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"raw","version":"1"}}}\n',
        answers: 1,
      },
      { line: '{"jsonrpc":"2.0","method":"notifications/initialized"}\r\n', answers: 0 },
      { line: '{"jsonrpc":"2.0","id":"t","method":"tools/list"}\n', answers: 1 },
      {
        line: `{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"read_text_file","arguments":{"path":${JSON.stringify(join(work, "a.txt"))}}}}\n`,
        answers: 1,
      },
      {
        line: `{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"list_directory","arguments":{"path":${JSON.stringify(work)}}}}\n`,
        answers: 1,
      },
    ];
    const env = testEnv();
    const direct = await scripted(process.execPath, [FS_SERVER, work], env, script);
    const relayed = await scripted(
      process.execPath,
      [MAIN, "--log-dir", tempDir(), "--", process.execPath, FS_SERVER, work],
      env,
      script,
    );
    expect(direct.stdout.length).toBeGreaterThan(1000);
    expect(relayed.stdout.equals(direct.stdout)).toBe(true);
    expect(relayed.code).toBe(direct.code);
  });

  it("exits 127 with one stderr line when the server command does not exist", async () => {
    const r = await scripted(
      process.execPath,
      [MAIN, "--log-dir", tempDir(), "--", "effectgate-missing-server-xyz", "arg"],
      testEnv(),
      [],
    );
    expect(r.code).toBe(127);
    expect(r.stderr.trimEnd().split("\n")).toEqual([
      expect.stringMatching(
        /^effectgate: cannot start the server: effectgate-missing-server-xyz: command not found on PATH$/,
      ),
    ]);
    expect(r.stdout.length).toBe(0);
  });

  it("exits with the server's code, or 128+signal", async () => {
    const line = '{"jsonrpc":"2.0","id":1,"method":"exit","params":{"code":42}}\n';
    const r = await scripted(
      process.execPath,
      [MAIN, "--log-dir", tempDir(), "--", process.execPath, fixture("echo.mjs")],
      testEnv(),
      [{ line, answers: 0 }],
    );
    expect(r.code).toBe(42);
    const killed = scripted(
      process.execPath,
      [
        MAIN,
        "--log-dir",
        tempDir(),
        "--",
        process.execPath,
        "-e",
        "process.stdout.write(String(process.pid)+'\\n');process.kill(process.pid,'SIGSEGV')",
      ],
      testEnv(),
      [],
    );
    const k = await killed;
    const pid = Number(k.stdout.toString().trim());
    expect(k.code).toBe(128 + 11);
    expect(isAlive(pid)).toBe(false);
  });

  it("passes SIGTERM to the server and kills it when it ignores it; nothing is left behind", async () => {
    let egPid = 0;
    const logDir = tempDir();
    const child = scripted(
      process.execPath,
      [MAIN, "--log-dir", logDir, "--", process.execPath, fixture("ignore-sigterm.mjs")],
      testEnv(),
      [{ line: "", answers: 1 }],
      (p) => (egPid = p),
    );
    // Wait until the server has announced itself, then signal effectgate.
    let serverPid = 0;
    for (let i = 0; i < 200 && serverPid === 0; i++) {
      await new Promise((r) => setTimeout(r, 25));
      const starts =
        readdirSync(logDir).length > 0
          ? logRecords(logDir).filter((r) => r.type === "frame" && r.dir === "s2c")
          : [];
      const first = starts[0] as { text?: string } | undefined;
      if (first?.text) serverPid = (JSON.parse(first.text) as { params: { pid: number } }).params.pid;
    }
    expect(serverPid).toBeGreaterThan(0);
    process.kill(egPid, "SIGTERM");
    const r = await child;
    expect(r.code).toBe(137);
    expect(isAlive(serverPid)).toBe(false);
    const events = logRecords(logDir)
      .filter((x) => x.type === "event")
      .map((x) => x.ev);
    expect(events).toEqual(expect.arrayContaining(["signal", "kill"]));
  });

  it("EFFECTGATE_OFF=1 relays with checks off and says so; EFFECTGATE_OFF=0 does not", async () => {
    const ping = [
      {
        line: '{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"x","arguments":{}}}\n',
        answers: 1,
      },
    ];
    const results: Array<{ from: unknown; stderr: string; out: string }> = [];
    for (const value of [" On ", "0"]) {
      const logDir = tempDir();
      // Off is decided before any configuration file is opened: a policy that does not exist is never read.
      const policy = value === "0" ? [] : ["--policy", join(tempDir(), "does-not-exist.yaml")];
      const r = await scripted(
        process.execPath,
        [MAIN, ...policy, "--log-dir", logDir, "--", process.execPath, fixture("echo.mjs")],
        testEnv({ EFFECTGATE_OFF: value }),
        ping,
      );
      expect(r.code).toBe(0);
      results.push({ from: logRecords(logDir)[0]?.from, stderr: r.stderr, out: r.stdout.toString() });
    }
    expect(results[0]?.from).toBe("off");
    expect(results[0]?.stderr).toMatch(/^effectgate: EFFECTGATE_OFF is set: relaying with no checks at all/);
    expect(results[1]?.from).not.toBe("off");
    // Only the first session's word on the observe level (core/gate/observe-notice.ts).
    expect(results[1]?.stderr).toBe(
      observeNotice(RELAY_HOW_TO_ENFORCE)
        .map((l) => `effectgate: ${l}\n`)
        .join(""),
    );
    expect(results[0]?.out).toBe(results[1]?.out);
  });
});
