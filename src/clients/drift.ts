// Differences between a baseline and the configs now, per file, loudest first.
import type { Baseline, FileRecord, ServerRecord } from "./baseline.js";
import { showArgv } from "./report.js";

export type DriftKind =
  | "lost-wrapper"
  | "new-unwrapped"
  | "unreadable"
  | "config-appeared"
  | "config-vanished"
  | "server-added"
  | "server-removed"
  | "server-changed";

export interface Drift {
  path: string;
  kind: DriftKind;
  server?: string;
  text: string;
}

const SEVERITY: DriftKind[] = [
  "lost-wrapper",
  "new-unwrapped",
  "unreadable",
  "config-vanished",
  "config-appeared",
  "server-removed",
  "server-changed",
  "server-added",
];

export function describeServer(s: ServerRecord): string {
  if (s.kind === "remote") return `remote ${s.url ?? s.type ?? ""} (UNGUARDED)`;
  if (s.command === undefined) return "(invalid declaration)";
  return showArgv([s.command, ...(s.args ?? [])]);
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
  return out;
}

function diffFile(before: FileRecord | undefined, after: FileRecord | undefined, path: string): Drift[] {
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
  const was = new Map((before?.servers ?? []).map((s) => [s.name, s]));
  const now = new Map((after?.servers ?? []).map((s) => [s.name, s]));
  for (const [name, a] of was) {
    const b = now.get(name);
    if (!b) {
      if (after)
        out.push({
          path,
          kind: "server-removed",
          server: name,
          text: `- server ${name} removed (was ${describeServer(a)})`,
        });
    } else if (a.wrapped && !b.wrapped) {
      out.push({
        path,
        kind: "lost-wrapper",
        server: name,
        text: `!! server ${name} LOST its effectgate wrapper: ${describeServer(a)} -> ${describeServer(b)}`,
      });
    } else if (a.hash !== b.hash) {
      out.push({
        path,
        kind: "server-changed",
        server: name,
        text: `~ server ${name} changed: ${fieldChanges(a, b).join("; ")}`,
      });
    }
  }
  for (const [name, b] of now) {
    if (was.has(name)) continue;
    if (b.kind === "stdio" && !b.wrapped) {
      out.push({
        path,
        kind: "new-unwrapped",
        server: name,
        text: `!! new server ${name} is NOT wrapped by effectgate: ${describeServer(b)}`,
      });
    } else {
      out.push({
        path,
        kind: "server-added",
        server: name,
        text: `+ server ${name} added: ${describeServer(b)}`,
      });
    }
  }
  return out;
}

export function diffBaseline(baseline: Baseline, current: FileRecord[]): Drift[] {
  const before = new Map(baseline.files.map((f) => [f.path, f]));
  const after = new Map(current.map((f) => [f.path, f]));
  const paths = [...new Set([...before.keys(), ...after.keys()])];
  const out: Drift[] = [];
  for (const p of paths) out.push(...diffFile(before.get(p), after.get(p), p));
  return out;
}

export function formatDrift(drift: readonly Drift[]): string {
  if (drift.length === 0) return "configs unchanged since the baseline\n";
  const byPath = new Map<string, Drift[]>();
  for (const d of drift) byPath.set(d.path, [...(byPath.get(d.path) ?? []), d]);
  const lines: string[] = [];
  for (const [path, items] of byPath) {
    lines.push(path);
    for (const d of [...items].sort((a, b) => SEVERITY.indexOf(a.kind) - SEVERITY.indexOf(b.kind)))
      lines.push(`  ${d.text}`);
  }
  return lines.join("\n") + "\n";
}
