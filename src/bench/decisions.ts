import type { CompiledPolicy, JudgeEnvironment } from "../core/policy/api.js";
import { createSessionJudge } from "../core/judge/session.js";

/** A mix of calls like a coding session's: mostly harmless reads and writes, some denials. */
export const BENCH_CALLS: ReadonlyArray<{ method: string; params: unknown }> = [
  { method: "tools/call", params: { name: "read_text_file", arguments: { path: "src/index.ts" } } },
  {
    method: "tools/call",
    params: {
      name: "write_file",
      arguments: { path: "src/util.ts", content: "export const x = 1;\n".repeat(50) },
    },
  },
  {
    method: "tools/call",
    params: { name: "edit_file", arguments: { path: "README.md", edits: [{ oldText: "a", newText: "b" }] } },
  },
  { method: "tools/call", params: { name: "list_directory", arguments: { path: "." } } },
  {
    method: "tools/call",
    params: {
      name: "write_file",
      arguments: { path: "~/.ssh/authorized_keys", content: "ssh-ed25519 AAAA" },
    },
  },
  {
    method: "tools/call",
    params: {
      name: "search_files",
      arguments: { path: "src", pattern: "*.ts", excludePatterns: ["node_modules"] },
    },
  },
  {
    method: "tools/call",
    params: { name: "run_command", arguments: { command: "npm test -- --reporter=dot" } },
  },
  {
    method: "tools/call",
    params: { name: "read_multiple_files", arguments: { paths: ["a.ts", "b.ts", "c.ts", "package.json"] } },
  },
];

/**
 * Decisions per second for the bench script. src/core may not read the clock, so the caller
 * passes one: a function returning milliseconds from the high-resolution timer. Runs whole rounds of BENCH_CALLS
 * until `minMs` have passed.
 */
export function decisionsPerSecond(
  policy: CompiledPolicy,
  env: JudgeEnvironment,
  nowMs: () => number,
  minMs = 500,
): { decisions: number; perSecond: number } {
  const judge = createSessionJudge(policy, env);
  const start = nowMs();
  let decisions = 0;
  let elapsed: number;
  do {
    for (const c of BENCH_CALLS) judge.judge(c.method, c.params);
    decisions += BENCH_CALLS.length;
    elapsed = nowMs() - start;
  } while (elapsed < minMs);
  return { decisions, perSecond: elapsed > 0 ? (decisions * 1000) / elapsed : Number.POSITIVE_INFINITY };
}
