// Shared by the black-box tests of issue 17's run-time blind spots: the built CLI around
// tests/fixtures/servers/runtime-server.mjs, judged by what reached the server and what the log holds.
import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { box, type Box, GateClient, isRefusal, type Msg, receivedWork, ROOT } from "./gate-client.js";

export const RUNTIME_SERVER = join(ROOT, "tests", "fixtures", "servers", "runtime-server.mjs");

export interface RuntimeRun {
  b: Box;
  c: GateClient;
}

/** One relay at `level` around the runtime server; `options` go before `--`. */
export function startRuntime(level: string, b: Box = box(), options: string[] = []): RuntimeRun {
  const args = ["--level", level, "--log-dir", b.logDir, ...options, "--", process.execPath, RUNTIME_SERVER];
  return { b, c: new GateClient(args, b.env, b.project) };
}

/** Server phases (instructions, tools) for successive starts with the same state folder. */
export function withPhases(b: Box, phases: unknown[]): Box {
  const file = join(b.home, "phases.json");
  writeFileSync(file, JSON.stringify({ phases }));
  b.env.PHASES_FILE = file;
  b.env.STATE_DIR = b.home;
  return b;
}

/** The `data` of every event `ev` in the box's logs, in the order written. */
export function logEvents(b: Box, ev: string): Msg[] {
  return readdirSync(b.logDir)
    .flatMap((f) => readFileSync(join(b.logDir, f), "utf8").split("\n"))
    .filter(Boolean)
    .map((l) => JSON.parse(l) as Msg)
    .filter((r) => r.type === "event" && r.ev === ev)
    .map((r) => r.data as Msg);
}

/** The tools/call lines the server received for `tool`. */
export function callsReceived(b: Box, tool: string): Msg[] {
  return receivedWork(b.record)
    .map((l) => JSON.parse(l) as Msg)
    .filter((m) => m.method === "tools/call" && (m.params as Msg | undefined)?.name === tool);
}

// Allowed in a clean session, denied in a tainted one (commands.sends_if_tainted).
export const RUN = { command: "git push origin main" };

/** Calls `tool` then `run_command`: whether the command was refused and whether it reached the server. */
export async function thenExec(
  r: RuntimeRun,
  tool: string,
  args: unknown,
): Promise<{ refused: boolean; reached: boolean }> {
  r.c.call(1, tool, args);
  await r.c.answer(1, 60_000);
  r.c.call(2, "run_command", RUN);
  const next = await r.c.answer(2, 60_000);
  // Frames keep their order: once a later call is answered, the server has read all before it.
  r.c.call(3, "canary", {});
  await r.c.answer(3, 60_000);
  return { refused: isRefusal(next), reached: callsReceived(r.b, "run_command").length > 0 };
}
