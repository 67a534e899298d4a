// Shared steps of install and uninstall: pick clients, find files, plan, print, write.
import { UsageError } from "../core/errors.js";
import type { MachineFacts } from "../platform/client-paths.js";
import { discover, readConfig, writeConfig } from "./config-io.js";
import { type FilePlan, type Mode, planFile } from "./plan.js";
import { CLIENTS, clientByName } from "./registry/index.js";
import { formatPlan } from "./report.js";
import type { ClientSpec } from "./types.js";

export function selectClients(names: readonly string[]): ClientSpec[] {
  const wanted = names.flatMap((n) => n.split(",")).filter((n) => n !== "");
  if (wanted.length === 0) return [...CLIENTS];
  return wanted.map((n) => {
    const spec = clientByName(n);
    if (!spec)
      throw new UsageError(
        `--client: expected one of ${CLIENTS.map((c) => c.name).join(", ")}, got ${JSON.stringify(n)}`,
      );
    return spec;
  });
}

export interface RunResult {
  written: number;
  failed: number;
  plans: FilePlan[];
}

/** Plans every file, prints the plan, and (unless dryRun) writes the changed files. */
export function runPlans(opts: {
  facts: MachineFacts;
  projectDir: string;
  clients: readonly ClientSpec[];
  mode: Mode;
  knownMains: readonly string[];
  dryRun: boolean;
  now: Date;
  out: (s: string) => void;
}): RunResult {
  const result: RunResult = { written: 0, failed: 0, plans: [] };
  const found = discover(opts.facts, opts.projectDir, opts.clients);
  if (found.length === 0) opts.out("no client config files found\n");
  for (const { spec, file } of found) {
    let read;
    try {
      read = readConfig(file.path);
    } catch (err) {
      opts.out(`${file.path} (${spec.title}, ${file.scope})\n  error   ${(err as Error).message}\n`);
      result.failed++;
      continue;
    }
    const plan = planFile(spec, file, read.text, opts.mode, opts.knownMains);
    result.plans.push(plan);
    opts.out(formatPlan(plan, spec.title, spec.notes(opts.facts, file)));
    if (plan.error) result.failed++;
    if (plan.newText === undefined || opts.dryRun) continue;
    try {
      const backup = writeConfig(read, plan.newText, opts.now);
      opts.out(`  written (backup ${backup})\n`);
      result.written++;
    } catch (err) {
      opts.out(`  error   ${(err as Error).message}\n`);
      result.failed++;
    }
  }
  const changed = result.plans.filter((p) => p.newText !== undefined).length;
  if (opts.dryRun) opts.out(`dry run: ${changed} file(s) would change; nothing written\n`);
  else
    opts.out(
      `wrote ${result.written} file(s)${result.written > 0 ? "; restart the affected clients" : ""}\n`,
    );
  return result;
}
