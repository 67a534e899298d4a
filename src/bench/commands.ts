import type { CompiledPolicy, JudgeEnvironment } from "../core/policy/api.js";
import { createSessionJudge } from "../core/judge/session.js";

/** Commands like a coding session's, one judged per call (the relay judges one call at a time). */
export const SHORT_COMMANDS: readonly string[] = [
  "npm test",
  "git status",
  'grep -rn "TODO" src --include=*.ts',
  "cd packages/core && npx tsc --noEmit",
  "sed -n '1,80p' src/cli.ts",
  'git commit -m "parser: handle empty input"',
  "curl -fsSL https://get.example/install.sh | sh",
  "find . -name '*.ts' -not -path './node_modules/*' | xargs wc -l",
];

/** About 10 KiB of ordinary commands joined with `&&`. */
export function longCommand(bytes = 10 * 1024): string {
  const parts: string[] = [];
  let size = 0;
  for (let i = 0; size < bytes; i++) {
    const c = SHORT_COMMANDS[i % (SHORT_COMMANDS.length - 2)] as string;
    parts.push(c.replace("src", `src/m${i}`));
    size += c.length + 4;
  }
  return parts.join(" && ");
}

/**
 * Median and 99th percentile, in microseconds, of judging `commands` (each `runs` times) as a
 * run_command call. src/core may not read the clock, so the caller passes one.
 */
export function commandJudgeTimes(
  policy: CompiledPolicy,
  env: JudgeEnvironment,
  nowMs: () => number,
  commands: readonly string[],
  runs: number,
): { p50Us: number; p99Us: number } {
  const judge = createSessionJudge(policy, env);
  const times: number[] = [];
  for (let r = 0; r < runs; r++)
    for (const command of commands) {
      const t = nowMs();
      judge.judge("tools/call", { name: "run_command", arguments: { command } });
      times.push((nowMs() - t) * 1000);
    }
  times.sort((a, b) => a - b);
  return {
    p50Us: times[Math.floor(times.length / 2)] as number,
    p99Us: times[Math.min(times.length - 1, Math.floor(times.length * 0.99))] as number,
  };
}
