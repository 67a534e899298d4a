// Differences between a baseline and the configs now, per file, loudest first.
import type { Baseline, FileRecord, ServerRecord } from "./baseline.js";
import { recognise } from "./relay-argv.js";
import { showArgv } from "./report.js";

export type DriftKind =
  | "lost-wrapper"
  | "foreign-wrapper"
  | "switched-off"
  | "new-unwrapped"
  | "unreadable"
  | "config-appeared"
  | "config-vanished"
  | "server-added"
  | "server-removed"
  | "server-changed"
  /** Unwrapped by `effectgate uninstall`, on purpose: said once in a note, not an alarm. */
  | "unwrapped";

export interface Drift {
  path: string;
  kind: DriftKind;
  server?: string;
  text: string;
}

const SEVERITY: DriftKind[] = [
  "lost-wrapper",
  "foreign-wrapper",
  "switched-off",
  "new-unwrapped",
  "unreadable",
  "config-vanished",
  "config-appeared",
  "server-removed",
  "server-changed",
  "server-added",
  "unwrapped",
];

/** Whether `argv` is what `effectgate uninstall` restored for this server (unwrap-memos.ts). */
export type UnwrappedOnPurpose = (config: string, server: string, argv: readonly string[]) => boolean;

/** Drift that makes verify exit 1: all of it but servers the user unwrapped with uninstall. */
export function alarms(drift: readonly Drift[]): Drift[] {
  return drift.filter((d) => d.kind !== "unwrapped");
}

function describeServer(s: ServerRecord): string {
  if (s.kind === "remote") return `remote ${s.url ?? s.type ?? ""} (UNGUARDED)`;
  if (s.command === undefined) return "(invalid declaration)";
  return showArgv([s.command, ...(s.args ?? [])]);
}

/** The launcher words of a record shaped like a wrapper (for the foreign-wrapper line). */
function launcherOf(s: ServerRecord): string {
  const argv = s.command === undefined ? [] : [s.command, ...(s.args ?? [])];
  const r = recognise(argv, []);
  return showArgv(r.wrapped === true ? argv.slice(0, r.launcher) : argv.slice(0, 1));
}

/** Lines that say a server is not guarded although it may look so; the same for verify --write. */
export function loudLines(s: ServerRecord, self: string): { kind: DriftKind; text: string }[] {
  const out: { kind: DriftKind; text: string }[] = [];
  if (s.foreign)
    out.push({
      kind: "foreign-wrapper",
      text: `starts through ${launcherOf(s)}, which is not this effectgate (${self})`,
    });
  if (s.off) out.push({ kind: "switched-off", text: "has effectgate switched OFF by EFFECTGATE_OFF" });
  return out;
}

function fieldChanges(a: ServerRecord, b: ServerRecord): string[] {
  const out: string[] = [];
  const argvA = describeServer(a);
  const argvB = describeServer(b);
  if (argvA !== argvB) out.push(`${argvA} -> ${argvB}`);
  for (const key of ["cwd", "type"] as const)
    if (a[key] !== b[key]) out.push(`${key}: ${a[key] ?? "(none)"} -> ${b[key] ?? "(none)"}`);
  for (const key of ["envNames", "headerNames"] as const) {
    const x = a[key].join(",");
    const y = b[key].join(",");
    if (x !== y) out.push(`${key === "envNames" ? "env names" : "header names"}: [${x}] -> [${y}]`);
  }
  const onOff = (r: ServerRecord) => (r.off ? "OFF by EFFECTGATE_OFF" : "on");
  if (a.off !== b.off) out.push(`checks: ${onOff(a)} -> ${onOff(b)}`);
  return out;
}

/**
 * Servers keyed for comparison. Names are not unique everywhere (Continue's YAML lists may hold
 * two entries named `tools`), so the k-th server of a name is compared with the k-th of that
 * name, and such names are shown with their place among them.
 */
function keyed(before: readonly ServerRecord[], after: readonly ServerRecord[]) {
  const count = (list: readonly ServerRecord[], name: string) => list.filter((s) => s.name === name).length;
  const label = (name: string, k: number) =>
    count(before, name) > 1 || count(after, name) > 1 ? `${name} (#${k} of that name)` : name;
  const byKey = (list: readonly ServerRecord[]) => {
    const seen = new Map<string, number>();
    return new Map(
      list.map((s) => {
        const k = (seen.get(s.name) ?? 0) + 1;
        seen.set(s.name, k);
        return [JSON.stringify([s.name, k]), { s, label: label(s.name, k) }] as const;
      }),
    );
  };
  return { was: byKey(before), now: byKey(after) };
}

function diffFile(
  before: FileRecord | undefined,
  after: FileRecord | undefined,
  path: string,
  self: string,
  onPurpose: UnwrappedOnPurpose,
): Drift[] {
  const out: Drift[] = [];
  if (after?.error !== undefined)
    out.push({ path, kind: "unreadable", text: `! config cannot be read: ${after.error}` });
  if (!before && after) {
    out.push({
      path,
      kind: "config-appeared",
      text: `+ config appeared (${after.servers.length} server(s))`,
    });
  } else if (before && !after) {
    out.push({
      path,
      kind: "config-vanished",
      text: `- config vanished (had ${before.servers.length} server(s))`,
    });
  }
  if (after?.error !== undefined) return out; // a file that cannot be read says nothing about its servers
  const { was, now } = keyed(before?.servers ?? [], after?.servers ?? []);
  const add = (kind: DriftKind, server: string, text: string) => out.push({ path, kind, server, text });
  for (const [key, { s: a, label: name }] of was) {
    const b = now.get(key)?.s;
    if (!b) {
      if (after) add("server-removed", name, `- server ${name} removed (was ${describeServer(a)})`);
      continue;
    }
    if (a.hash === b.hash) continue;
    // What makes a server unguarded is said loudly, whatever else changed with it.
    const loud = loudLines(b, self).filter((l) => l.kind === "foreign-wrapper" || !a.off);
    for (const l of loud) add(l.kind, name, `!! server ${name} ${l.text}`);
    const unwrapped = a.wrapped && !b.wrapped && !b.foreign;
    if (unwrapped && loud.length === 0 && onPurpose(path, b.name, [b.command ?? "", ...(b.args ?? [])])) {
      add("unwrapped", name, `server ${name} was unwrapped by effectgate uninstall: ${describeServer(b)}`);
    } else if (unwrapped) {
      add(
        "lost-wrapper",
        name,
        `!! server ${name} LOST its effectgate wrapper: ${describeServer(a)} -> ${describeServer(b)}`,
      );
    } else {
      add("server-changed", name, `~ server ${name} changed: ${fieldChanges(a, b).join("; ")}`);
    }
  }
  for (const [key, { s: b, label: name }] of now) {
    if (was.has(key)) continue;
    for (const l of loudLines(b, self)) add(l.kind, name, `!! new server ${name} ${l.text}`);
    if (b.kind === "stdio" && !b.wrapped && !b.foreign)
      add("new-unwrapped", name, `!! new server ${name} is NOT wrapped by effectgate: ${describeServer(b)}`);
    else add("server-added", name, `+ server ${name} added: ${describeServer(b)}`);
  }
  return out;
}

/**
 * `self` names this effectgate (its main.js) in the line about a wrapper that is not it;
 * `onPurpose` tells servers `effectgate uninstall` unwrapped from ones that lost their wrapper.
 */
export function diffBaseline(
  baseline: Baseline,
  current: FileRecord[],
  self: string,
  onPurpose: UnwrappedOnPurpose = () => false,
): Drift[] {
  const before = new Map(baseline.files.map((f) => [f.path, f]));
  const after = new Map(current.map((f) => [f.path, f]));
  const paths = [...new Set([...before.keys(), ...after.keys()])];
  const out: Drift[] = [];
  for (const p of paths) out.push(...diffFile(before.get(p), after.get(p), p, self, onPurpose));
  return out;
}

/** One quiet line for the servers uninstall unwrapped: the user did that, it is no alarm. */
function unwrappedNote(count: number): string {
  return count === 0
    ? ""
    : `note: effectgate uninstall unwrapped ${count} server(s) since the baseline; effectgate verify --write records that, effectgate install wraps them again\n`;
}

export function formatDrift(drift: readonly Drift[]): string {
  const loud = alarms(drift);
  const note = unwrappedNote(drift.length - loud.length);
  if (loud.length === 0) return `configs unchanged since the baseline\n${note}`;
  const byPath = new Map<string, Drift[]>();
  for (const d of loud) byPath.set(d.path, [...(byPath.get(d.path) ?? []), d]);
  const lines: string[] = [];
  for (const [path, items] of byPath) {
    lines.push(path);
    for (const d of [...items].sort((a, b) => SEVERITY.indexOf(a.kind) - SEVERITY.indexOf(b.kind)))
      lines.push(`  ${d.text}`);
  }
  return lines.join("\n") + "\n" + note;
}
