import { readFileSync } from "node:fs";

/**
 * A name for the client that started this effectgate: its pid, plus on Linux its start time
 * (so a recycled pid is a different client). Relays started by one client share this name.
 */
export function clientProcessKey(ppid: number = process.ppid): string {
  try {
    // Field 22 of /proc/<pid>/stat is the start time; the command name (field 2) may hold
    // spaces and parentheses, so count from the last ")".
    const stat = readFileSync(`/proc/${ppid}/stat`, "utf8");
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    const start = fields[19];
    if (start) return `${ppid}-${start}`;
  } catch {
    // not Linux, or the parent is already gone: the pid alone, bounded by the marker's expiry
  }
  return String(ppid);
}
