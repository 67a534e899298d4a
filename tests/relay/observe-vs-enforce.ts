// Shared by the black-box tests that run one session at observe and at enforce around
// tests/fixtures/servers/hostile-answers.mjs and compare what each level's log says
// (docs/decisions/0066-observe-reads-what-enforce-reads.md).
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { GateClient, type Box, type Msg } from "../adversarial/gate-client.js";

export const HOSTILE_SERVER = join(import.meta.dirname, "..", "fixtures", "servers", "hostile-answers.mjs");
export const MiB = 1024 * 1024;
export const LEVELS = ["observe", "enforce"] as const;
export type Level = (typeof LEVELS)[number];

export function start(b: Box, level: Level): GateClient {
  return new GateClient(
    ["--level", level, "--log-dir", b.logDir, "--", process.execPath, HOSTILE_SERVER],
    b.env,
  );
}

/** The `data` of every event `ev` in the box's logs, in the order written. */
export function events(b: Box, ev: string): Msg[] {
  return readdirSync(b.logDir)
    .flatMap((f) => readFileSync(join(b.logDir, f), "utf8").split("\n"))
    .filter(Boolean)
    .map((l) => JSON.parse(l) as Msg)
    .filter((r) => r.type === "event" && r.ev === ev)
    .map((r) => r.data as Msg);
}

/** What the decision record of `id` says, in the fields observe and enforce share. */
export function decisionOf(b: Box, id: unknown): Msg | undefined {
  const d = events(b, "decision").find((r) => JSON.stringify(r.id) === JSON.stringify(id));
  return d && { verdict: d.verdict, rule: d.rule, tainted: d.tainted, tool: d.tool };
}

export const runCommand = (id: number): Msg => ({
  jsonrpc: "2.0",
  id,
  method: "tools/call",
  params: { name: "run_command", arguments: { command: "deploy-tool --all" } },
});
