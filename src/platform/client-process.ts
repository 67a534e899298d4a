/**
 * The chain of processes above this relay, as the machine tells it, for the shared-taint key:
 * Linux from /proc, macOS and other Unixes from one `ps` call, Windows from a process snapshot
 * (Toolhelp32, through koffi; without koffi installed, the direct parent). Which of them is the client is decided in
 * src/core/process/client-chain.ts. Anything that cannot be read ends the chain there; with no
 * chain at all the key is the direct parent's pid, as before.
 */
import { spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { clientKey, clientOf, type ProcessFacts } from "../core/process/client-chain.js";
import { loadKoffi } from "./koffi.js";

/** Ancestors read at most: a launcher chain is a few deep; a loop of stale pids must end. */
const MAX_DEPTH = 12;

/**
 * A name for the client that started this effectgate: its pid, plus its start time where the
 * machine gives one (so a recycled pid is a different client). Relays started by one client,
 * directly or through `sh -c`, `npx` or a `.cmd` shim, share this name.
 */
export function clientProcessKey(
  ppid: number = process.ppid,
  platform: NodeJS.Platform = process.platform,
): string {
  let chain: ProcessFacts[] = [];
  try {
    chain =
      platform === "linux"
        ? procChain(ppid)
        : platform === "win32"
          ? windowsChain(ppid)
          : psChain(ppid, runPs());
  } catch {
    // unreadable: the direct parent, bounded by the marker's expiry
  }
  const client = clientOf(chain);
  return client === undefined ? String(ppid) : clientKey(client);
}

/** One /proc entry: its parent, start time and command line. Exported for tests. */
export function procEntry(pid: number, read: (path: string) => string): ProcessFacts & { ppid: number } {
  // The command name (field 2) may hold spaces and parentheses, so count from the last ")".
  const stat = read(`/proc/${pid}/stat`);
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  const argv = read(`/proc/${pid}/cmdline`).split("\0");
  if (argv[argv.length - 1] === "") argv.pop();
  const start = fields[19];
  return { pid, ppid: Number(fields[1]), argv, argvKnown: true, ...(start ? { start } : {}) };
}

function procChain(ppid: number, read = (p: string) => readFileSync(p, "utf8")): ProcessFacts[] {
  const chain: ProcessFacts[] = [];
  for (let pid = ppid; pid > 1 && chain.length < MAX_DEPTH;) {
    let e: ProcessFacts & { ppid: number };
    try {
      e = procEntry(pid, read);
    } catch {
      break; // gone, or not ours to read
    }
    chain.push(e);
    pid = e.ppid;
  }
  return chain;
}

function runPs(): string {
  const r = spawnSync("ps", ["-A", "-o", "pid=", "-o", "ppid=", "-o", "lstart=", "-o", "args="], {
    encoding: "utf8",
    timeout: 2000,
    maxBuffer: 16 * 1024 * 1024,
  });
  return r.status === 0 ? r.stdout : "";
}

/**
 * The chain from `ps -A -o pid= -o ppid= -o lstart= -o args=` output: pid, parent, a start time
 * of five words (`Mon Dec  1 22:35:00 2026`), then the command line, its words split on spaces.
 * Exported for tests.
 */
export function psChain(ppid: number, table: string): ProcessFacts[] {
  const rows = new Map<number, { ppid: number; start: string; argv: string[] }>();
  for (const line of table.split("\n")) {
    const m = /^\s*(\d+)\s+(\d+)\s+(\S+\s+\S+\s+\S+\s+\S+\s+\S+)\s+(.*)$/.exec(line);
    if (m === null) continue;
    rows.set(Number(m[1]), {
      ppid: Number(m[2]),
      start: (m[3] as string).replace(/\s+/g, " "),
      argv: (m[4] as string).trim().split(/\s+/),
    });
  }
  const chain: ProcessFacts[] = [];
  for (let pid = ppid; pid > 1 && chain.length < MAX_DEPTH;) {
    const row = rows.get(pid);
    if (row === undefined) break;
    chain.push({ pid, argv: row.argv, argvKnown: true, start: row.start });
    pid = row.ppid;
  }
  return chain;
}

/* eslint-disable @typescript-eslint/no-explicit-any -- koffi calls are untyped by nature */
/** The Windows process table, pid → parent and executable name, from a Toolhelp32 snapshot. */
function windowsTable(): Map<number, { ppid: number; exe: string }> {
  // Throws when koffi is not installed: the chain is then unread, and the key the direct parent.
  const koffi = loadKoffi() as any;
  const k32 = koffi.load("kernel32.dll");
  const Entry = koffi.struct("PROCESSENTRY32W", PROCESSENTRY32W(koffi));
  const Snapshot = k32.func("void * __stdcall CreateToolhelp32Snapshot(uint32_t flags, uint32_t pid)");
  const First = k32.func("int __stdcall Process32FirstW(void *snap, _Inout_ PROCESSENTRY32W *entry)");
  const Next = k32.func("int __stdcall Process32NextW(void *snap, _Inout_ PROCESSENTRY32W *entry)");
  const Close = k32.func("int __stdcall CloseHandle(void *h)");
  const TH32CS_SNAPPROCESS = 0x2;
  const snap = Snapshot(TH32CS_SNAPPROCESS, 0);
  const table = new Map<number, { ppid: number; exe: string }>();
  try {
    const entry: any = { dwSize: koffi.sizeof(Entry) };
    for (let ok = First(snap, entry); ok !== 0; ok = Next(snap, entry))
      table.set(entry.th32ProcessID as number, {
        ppid: entry.th32ParentProcessID as number,
        exe: entry.szExeFile as string,
      });
  } finally {
    Close(snap);
  }
  return table;
}

/** PROCESSENTRY32W's members in order (tlhelp32.h), for koffi. Exported for tests (its size). */
export function PROCESSENTRY32W(koffi: any): Record<string, unknown> {
  return {
    dwSize: "uint32_t",
    cntUsage: "uint32_t",
    th32ProcessID: "uint32_t",
    th32DefaultHeapID: "uintptr_t",
    th32ModuleID: "uint32_t",
    cntThreads: "uint32_t",
    th32ParentProcessID: "uint32_t",
    pcPriClassBase: "int32_t",
    dwFlags: "uint32_t",
    szExeFile: koffi.array("char16_t", 260, "String"),
  };
}
/* eslint-enable @typescript-eslint/no-explicit-any */

function windowsChain(ppid: number): ProcessFacts[] {
  const table = windowsTable();
  const chain: ProcessFacts[] = [];
  const seen = new Set<number>();
  for (let pid = ppid; pid > 4 && !seen.has(pid) && chain.length < MAX_DEPTH;) {
    seen.add(pid);
    const row = table.get(pid);
    if (row === undefined) break;
    chain.push({ pid, argv: [row.exe], argvKnown: false });
    pid = row.ppid;
  }
  return chain;
}
