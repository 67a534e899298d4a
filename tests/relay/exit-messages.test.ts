import { describe, expect, it } from "vitest";
import { DoubleGate } from "./gate-double.js";
import { fixture, startRelay } from "./helpers.js";

// How the end of a session is told to the human (one stderr line) and to the log (an event).

describe("stderr lines when the server goes away", () => {
  it("the server exits with its own code while a call is pending: says the code and the count", async () => {
    const h = startRelay(["node", fixture("echo.mjs")], { gate: new DoubleGate() });
    h.send('{"jsonrpc":"2.0","id":1,"method":"ping"}\n');
    expect(JSON.parse(await h.next())).toMatchObject({ id: 1 });
    h.send('{"jsonrpc":"2.0","id":2,"method":"exit","params":{"code":3}}\n');
    const r = await h.result;
    expect(r.exitCode).toBe(3);
    const lines = h
      .stderr()
      .split("\n")
      .filter((l) => l.startsWith("effectgate:"));
    expect(lines).toEqual(["effectgate: server exited with code 3; 1 call was left unanswered"]);
    expect(h.log.events("server-exit")).toEqual([
      expect.objectContaining({ code: 3, signal: null, unanswered: 1, said: lines[0]?.slice(12) }),
    ]);
  });

  it("a server killed by a signal from elsewhere is named with the signal", async () => {
    const h = startRelay(["node", fixture("echo.mjs")], { gate: new DoubleGate() });
    process.kill(await h.pid, "SIGKILL");
    const r = await h.result;
    expect(r.exitCode).toBe(137);
    expect(h.stderr()).toContain("effectgate: server was killed by SIGKILL\n");
    expect(h.log.events("server-exit")[0]).toMatchObject({ signal: "SIGKILL", unanswered: 0 });
  });

  it("a server that quits on its own with code 0 is still reported (the client only sees EOF)", async () => {
    const h = startRelay(["node", fixture("echo.mjs")]);
    h.send('{"jsonrpc":"2.0","id":1,"method":"exit","params":{"code":0}}\n');
    await h.result;
    // No gate: requests are not tracked, so no count is claimed.
    expect(h.stderr()).toBe("effectgate: server exited with code 0\n");
  });

  it("a normal end (client EOF, server exits 0) says nothing", async () => {
    const h = startRelay(["node", fixture("echo.mjs")], { gate: new DoubleGate() });
    h.send('{"jsonrpc":"2.0","id":1,"method":"ping"}\n');
    await h.next();
    h.end();
    const r = await h.result;
    expect(r.exitCode).toBe(0);
    expect(h.stderr()).toBe("");
    expect(h.log.events("server-exit")).toEqual([expect.objectContaining({ code: 0, said: null })]);
  });
});
