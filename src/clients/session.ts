// Shared steps of install and uninstall: pick clients, find files, plan, print, write.
import { accessSync, constants } from "node:fs";
import { dirname } from "node:path";
import { UsageError } from "../core/errors.js";
import type { MachineFacts } from "../platform/client-paths.js";
import { discover, readConfig, writeConfig } from "./config-io.js";
import { withLinkedMains } from "./launcher.js";
import { loadMemos, type Memo, memoFor, memosFor, updateMemos } from "./memos.js";
import { type FilePlan, holdPlan, type Mode, planFile } from "./plan.js";
import { CLIENTS, clientByName } from "./registry/index.js";
import { parseConfig } from "./parse.js";
import { formatPlan } from "./report.js";
import { recognise } from "./relay-argv.js";
import { serversOf } from "./servers.js";
import { updateUnwrapMemos, unwrapMemo } from "./unwrap-memos.js";
import type { ClientSpec, ConfigFile } from "./types.js";

/** `--client a,b --client c` → ["a", "b", "c"]. */
export function clientNames(values: readonly string[]): string[] {
  return values.flatMap((n) => n.split(",")).filter((n) => n !== "");
}

export function selectClients(names: readonly string[]): ClientSpec[] {
  const wanted = clientNames(names);
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
  /** Clients named with --client: only these may have their system-wide files changed. */
  asked: readonly string[];
  /** Where install memos live (memos.ts). */
  memosPath: string;
  /** Where unwrap memos live (unwrap-memos.ts): what uninstall restored, so verify stays quiet. */
  unwrapMemosPath: string;
  out: (s: string) => void;
}): RunResult {
  const result: RunResult = { written: 0, failed: 0, plans: [] };
  const found = discover(opts.facts, opts.projectDir, opts.clients);
  const memos = loadMemos(opts.memosPath);
  const add: Memo[] = [];
  const drop: Memo[] = [];
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
    const parsed = parseConfig(read.text, file.format);
    const mains = parsed.ok
      ? withLinkedMains(opts.knownMains, serversOf(spec, file, parsed.value))
      : opts.knownMains;
    let plan = planFile(spec, file, read.text, opts.mode, mains, memosFor(memos, read.target));
    const hold = systemHold(file, read.target, opts.asked);
    if (hold !== undefined && plan.newText !== undefined) plan = holdPlan(plan, hold);
    result.plans.push(plan);
    opts.out(formatPlan(plan, spec.title, spec.notes(opts.facts, file)));
    if (plan.error) result.failed++;
    if (plan.newText === undefined || opts.dryRun) continue;
    const changed = plan.actions.filter((a) => a.action !== "skip");
    const unwrapped = changed.map((a) => unwrapMemo(file.path, a.name, a.after ?? []));
    try {
      // Recorded before the config changes, so that a watch reading the new config finds it.
      if (opts.mode.kind === "uninstall") updateUnwrapMemos(opts.unwrapMemosPath, unwrapped, []);
      const backup = writeConfig(read, plan.newText, {
        backup: opts.mode.kind === "install" || holdsWrapper(plan.newText, spec, file, mains),
      });
      opts.out(
        backup === null
          ? "  written (no wrapper left, so no backup kept)\n"
          : `  written (backup ${backup})\n`,
      );
      result.written++;
      const done = plan.memos.map((m) => memoFor(read.target, m));
      (opts.mode.kind === "install" ? add : drop).push(...done);
      if (opts.mode.kind === "install") updateUnwrapMemos(opts.unwrapMemosPath, [], unwrapped);
    } catch (err) {
      opts.out(`  error   ${(err as Error).message}\n`);
      result.failed++;
      // The servers were not unwrapped after all.
      if (opts.mode.kind === "uninstall") {
        try {
          updateUnwrapMemos(opts.unwrapMemosPath, [], unwrapped);
        } catch {
          // the write error above is the one to report; a stale memo matches only that exact command
        }
      }
    }
  }
  try {
    updateMemos(opts.memosPath, add, drop);
  } catch (err) {
    opts.out(`error   cannot record install memos in ${opts.memosPath}: ${(err as Error).message}\n`);
    result.failed++;
  }
  const changed = result.plans.filter((p) => p.newText !== undefined).length;
  if (opts.dryRun) opts.out(`dry run: ${changed} file(s) would change; nothing written\n`);
  else
    opts.out(
      `wrote ${result.written} file(s)${result.written > 0 ? "; restart the affected clients" : ""}\n`,
    );
  return result;
}

/** Whether any server in `text` still starts through something shaped like effectgate. */
function holdsWrapper(text: string, spec: ClientSpec, file: ConfigFile, mains: readonly string[]): boolean {
  const parsed = parseConfig(text, file.format);
  if (!parsed.ok) return true; // cannot tell: keep the backup
  return serversOf(spec, file, parsed.value).some(
    (d) => d.argv !== undefined && recognise(d.argv, mains).wrapped !== false,
  );
}

function writable(path: string): boolean {
  try {
    accessSync(path, constants.W_OK);
    return true;
  } catch {
    return false;
  }
}

/**
 * Why a system-wide file (/etc/codex, Gemini's system settings) is not written, or undefined
 * when it may be: it serves every user of the machine, so it changes only when its client is
 * named with --client and this user can replace it (the file and, for temp + rename, its folder).
 */
function systemHold(file: ConfigFile, target: string, asked: readonly string[]): string | undefined {
  if (file.scope !== "system") return undefined;
  if (!asked.includes(file.client)) return `this system-wide file changes only with --client ${file.client}`;
  if (!writable(target) || !writable(dirname(target)))
    return "this system-wide file is not writable by you (run as an administrator)";
  return undefined;
}
