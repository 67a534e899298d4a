import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { CannotStartError } from "../../src/core/errors.js";
import { fixture, isAlive, startRelay, tempDir, testEnv } from "./helpers.js";
import { DoubleGate } from "./gate-double.js";

describe("relay with fixture servers", () => {
  it("relays frames unchanged both ways, including CRLF, non-JSON and a last line without newline", async () => {
    const rec = join(tempDir(), "seen.jsonl");
    const h = startRelay(["node", fixture("echo.mjs"), rec]);
    const lines = [
      '{"jsonrpc":"2.0","id":1,"method":"ping","params":{"n":1.0,"s":"\\u00e9"}}\r\n',
      "not json at all\n",
      '{"jsonrpc":"2.0","method":"notifications/x"}\n',
      '{ "id" : "a", "jsonrpc":"2.0","method":"tools/list"}',
    ];
    // Split across writes at awkward places.
    const all = lines.join("");
    for (let i = 0; i < all.length; i += 7) h.send(all.slice(i, i + 7));
    const first = JSON.parse(await h.next()) as { id: unknown };
    expect(first.id).toBe(1);
    h.end(); // the last frame (no newline) is flushed on EOF
    const second = JSON.parse(await h.next()) as { id: unknown };
    expect(second.id).toBe("a");
    const r = await h.result;
    expect(r.exitCode).toBe(0);
    // The server saw the exact lines (readline strips the terminators only).
    expect(readFileSync(rec, "utf8")).toBe(lines.map((l) => l.replace(/\r?\n$/, "")).join("\n") + "\n");
    const frames = h.log.records.filter((x) => x.kind === "frame" && x.dir === "c2s");
    expect(frames.map((f) => [f.eol, f.nonJson])).toEqual([
      ["\r\n", false],
      ["\n", true],
      ["\n", false],
      ["", false],
    ]);
    expect(r.stats).toMatchObject({ c2sFrames: 4, forwarded: 4, s2cFrames: 2 });
    expect(isAlive(await h.pid)).toBe(false);
  });

  it("a server that crashes mid-frame: the half frame is flushed and its exit code returned", async () => {
    const h = startRelay(["node", fixture("crash-mid-frame.mjs")]);
    const r = await h.result;
    expect(r.exitCode).toBe(3);
    const out = [await h.next(), await h.next()];
    expect(out[1]).toBe('{"jsonrpc":"2.0","id":1,"resu');
    expect(h.output.writableEnded).toBe(true);
    const exit = h.log.records.find((x) => x.kind === "exit");
    expect(exit?.data).toMatchObject({ code: 3, signal: null, exitCode: 3 });
    expect(isAlive(await h.pid)).toBe(false);
  });

  it("relays a 64 MiB frame intact", async () => {
    const h = startRelay(["node", fixture("big-frame.mjs"), "64"]);
    h.send('{"jsonrpc":"2.0","id":"big","method":"tools/call","params":{"name":"x"}}\n');
    const frame = await h.next();
    const head = '{"jsonrpc":"2.0","id":"big","result":{"content":[{"type":"text","text":"';
    expect(frame.length).toBe(head.length + 64 * 1024 * 1024 + '"}]}}'.length);
    expect(frame.startsWith('{"jsonrpc":"2.0","id":"big"')).toBe(true);
    expect(frame.endsWith('aaaa"}]}}')).toBe(true);
    h.end();
    expect((await h.result).exitCode).toBe(0);
    // Pass-through kept no copy of the bytes: the log has the frame's head and the hash of all.
    const logged = h.log.records.find((r) => r.kind === "frame" && r.dir === "s2c");
    expect(logged?.sha256).toBe(createHash("sha256").update(frame).digest("hex"));
    expect(frame.startsWith(logged?.text ?? "-")).toBe(true);
  });

  it("stops a server whose line exceeds the size limit, loudly, leaving no process", async () => {
    // A gate that may refuse makes the relay hold whole frames: none of the line gets out.
    const h = startRelay(["node", fixture("big-frame.mjs"), "3"], {
      maxFrameBytes: 1024 * 1024,
      gate: new DoubleGate(),
    });
    h.send('{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"x"}}\n');
    const r = await h.result;
    expect(r.signal).toBe("SIGTERM");
    expect(r.exitCode).toBe(143);
    expect(h.received).toEqual([]);
    expect(h.log.events("frame-too-large")).toEqual([{ from: "server", limitBytes: 1024 * 1024 }]);
    expect(h.stderr()).toMatch(/the server sent a line longer than 1048576 bytes/);
    expect(isAlive(await h.pid)).toBe(false);
  });

  it("in pass-through, an oversize line is cut where the limit was found, never completed", async () => {
    // No gate: bytes go on as they arrive, so the client may see the head of the line, but the
    // server is stopped and no complete frame ever reaches the client.
    const h = startRelay(["node", fixture("big-frame.mjs"), "3"], { maxFrameBytes: 1024 * 1024 });
    h.send('{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"x"}}\n');
    const r = await h.result;
    expect(r.signal).toBe("SIGTERM");
    expect(h.received.length).toBeLessThanOrEqual(1);
    const head = h.received[0] ?? "";
    expect(head.startsWith('{"jsonrpc":"2.0","id":1,"result"') || head === "").toBe(true);
    expect(head.endsWith("}")).toBe(false);
    expect(head.length).toBeLessThan(3 * 1024 * 1024);
    expect(h.log.events("frame-too-large")).toEqual([{ from: "server", limitBytes: 1024 * 1024 }]);
    expect(isAlive(await h.pid)).toBe(false);
  });

  it("relays a stderr flood line by line and records it", async () => {
    const h = startRelay(["node", fixture("stderr-flood.mjs"), "20000"]);
    const r = await h.result;
    expect(r.exitCode).toBe(0);
    const lines = h
      .stderr()
      .split("\n")
      .filter((l) => l.startsWith("[server] flood line"));
    expect(lines.length).toBe(20000);
    // Each marked as the server's (core/text/server-stderr.ts), none torn.
    expect(lines.every((l, i) => l.startsWith(`[server] flood line ${i} `))).toBe(true);
    expect(h.log.records.filter((x) => x.kind === "stderr").length).toBe(20000);
    expect(JSON.parse(await h.next())).toMatchObject({ params: { data: "done" } });
  });

  it("kills a server that ignores SIGTERM after client EOF, leaving no process", async () => {
    const h = startRelay(["node", fixture("ignore-sigterm.mjs")]);
    const hello = JSON.parse(await h.next()) as { params: { pid: number } };
    const pid = await h.pid;
    expect(hello.params.pid).toBe(pid);
    h.end();
    const r = await h.result;
    expect(r.signal).toBe("SIGKILL");
    expect(r.exitCode).toBe(137);
    const kills = h.log.events("kill").map((e) => e.signal);
    expect(kills).toEqual(["SIGTERM", "SIGKILL"]);
    expect(isAlive(pid)).toBe(false);
  });

  it("relays a server→client roots/list request and the client's answer", async () => {
    const rec = join(tempDir(), "seen.jsonl");
    const h = startRelay(["node", fixture("roots-list.mjs"), rec]);
    h.send(
      '{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{"roots":{}},"clientInfo":{"name":"t","version":"1"}}}\n',
    );
    expect(JSON.parse(await h.next())).toMatchObject({
      id: 0,
      result: { serverInfo: { name: "roots-fixture" } },
    });
    h.send('{"jsonrpc":"2.0","method":"notifications/initialized"}\n');
    expect(JSON.parse(await h.next())).toEqual({ jsonrpc: "2.0", id: 0, method: "roots/list" });
    h.send('{"jsonrpc":"2.0","id":0,"result":{"roots":[{"uri":"file:///tmp/x"}]}}\n');
    h.send('{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"t","arguments":{}}}\n');
    const answer = JSON.parse(await h.next()) as { id: number; result: { content: Array<{ text: string }> } };
    expect(answer.id).toBe(1);
    expect(JSON.parse(answer.result.content[0]?.text ?? "null")).toEqual([{ uri: "file:///tmp/x" }]);
    h.end();
    await h.result;
    const hs = h.log.events("handshake");
    expect(hs).toEqual([
      {
        era: "legacy",
        requestedVersion: "2025-06-18",
        protocolVersion: "2025-06-18",
        clientInfo: { name: "t", version: "1" },
        serverInfo: { name: "roots-fixture", version: "1" },
        clientCapabilities: { roots: {} },
        serverCapabilities: { tools: {} },
      },
    ]);
  });

  it("passes the environment, minus denied names which are logged without values", async () => {
    const rec = join(tempDir(), "seen.jsonl");
    const h = startRelay(
      [
        "node",
        "-e",
        "process.stdout.write(JSON.stringify({a:process.env.EG_KEEP,b:process.env.EG_SECRET??null})+'\\n')",
        rec,
      ],
      {
        env: testEnv({ EG_KEEP: "kept", EG_SECRET: "hunter2" }),
        envDeny: ["EG_SECRET"],
      },
    );
    expect(JSON.parse(await h.next())).toEqual({ a: "kept", b: null });
    h.end();
    await h.result;
    expect(h.log.events("env-deny")).toEqual([{ removed: ["EG_SECRET"] }]);
    expect(JSON.stringify(h.log.records)).not.toContain("hunter2");
  });

  it("a missing command is a CannotStartError", async () => {
    const h = startRelay(["effectgate-no-such-command-xyz"]);
    await expect(h.result).rejects.toBeInstanceOf(CannotStartError);
    await expect(h.result).rejects.toThrow(/effectgate-no-such-command-xyz: command not found on PATH/);
  });
});
