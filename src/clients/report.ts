// Human-readable plan: one block per file, one line per server.
import type { FilePlan } from "./plan.js";

/** argv as a shell-ish line: words with spaces or quotes are JSON-quoted. */
export function showArgv(argv: readonly string[]): string {
  return argv.map((w) => (w === "" || /[\s"'\\$`]/.test(w) ? JSON.stringify(w) : w)).join(" ");
}

export function formatPlan(plan: FilePlan, title: string, notes: readonly string[]): string {
  const lines = [`${plan.file.path} (${title}, ${plan.file.scope})`];
  if (plan.error) lines.push(`  error   ${plan.error}`);
  for (const a of plan.actions) {
    if (a.action === "skip") lines.push(`  skip    ${a.name}: ${a.reason ?? ""}`);
    else {
      lines.push(`  ${a.action.padEnd(7)} ${a.name}: ${showArgv(a.before ?? [])}`);
      lines.push(`          -> ${showArgv(a.after ?? [])}`);
      if (a.reason !== undefined) lines.push(`          (${a.reason})`);
    }
  }
  if (!plan.error && plan.actions.length === 0) lines.push("  (no servers)");
  if (plan.newText !== undefined) for (const n of notes) lines.push(`  note    ${n}`);
  return lines.join("\n") + "\n";
}
