import type { Carries, CommandEffect } from "./api.js";

// What the walk of a command collects as it goes: the effects found, the words to judge the old
// way, and the data that may flow on (reads, prints of the environment, variables holding
// secrets) to a later send. The walk itself is the Analyser (analyser.ts), which extends this.

/** A process's environment read as a file: printing it is printing the environment. */
const PROC_ENVIRON = /^\/proc\/[^/]+\/environ$/;

/** Whether a collector holds anything: a send that carries it gives a secret (or a file) away. */
export const holds = (c: Carries): boolean =>
  c.reads.length > 0 || c.environment !== undefined || (c.variables?.length ?? 0) > 0;

export class Collector {
  readonly effects: CommandEffect[] = [];
  readonly legacy: string[] = [];
  unjudgeable?: string;
  private readonly seen = new Set<string>();
  /** Open collectors of what may flow on as data (tap): reads, and prints of the environment. */
  private readonly taps: Carries[] = [];
  /** Sends and fetches emitted so far, counted before de-duplication. */
  private sent = 0;
  /** What printed the environment anywhere in this walk (an `sh -c env` tells its caller). */
  printedEnvironment?: string;
  /** What the variables set so far hold of secret data, by name (decision 0137). */
  carried = new Map<string, Carries>();

  /** Read around a program's run (simple-command.ts): a program that raised it sent its words out. */
  get sends(): number {
    return this.sent;
  }

  emit(e: CommandEffect): void {
    if (e.kind === "egress" || e.kind === "url") this.sent++;
    if (e.operation === "read" && e.kind === "path" && e.via.sent !== true)
      for (const t of this.taps) {
        t.reads.push(e);
        if (PROC_ENVIRON.test(e.spelled)) t.environment ??= e.spelled;
      }
    // A read that sends the file out is kept beside a plain read of it (`nc h p < f`): it says more.
    const key = `${e.operation}\u0000${e.kind}\u0000${e.spelled}\u0000${e.via.class ?? ""}\u0000${e.via.container ?? ""}\u0000${e.via.command}\u0000${e.via.sent === true ? "sent" : ""}\u0000${e.via.carries ?? ""}`;
    if (this.seen.has(key)) return;
    this.seen.add(key);
    this.effects.push(e);
  }

  /** Data a word brings along (a variable holding a secret file): every open tap carries it. */
  protected bring(c: Carries): void {
    for (const t of this.taps) {
      for (const r of c.reads) if (!t.reads.includes(r)) t.reads.push(r);
      if (c.environment !== undefined) t.environment ??= c.environment;
      for (const v of c.variables ?? []) if (!(t.variables ??= []).includes(v)) t.variables.push(v);
    }
  }

  /**
   * Sets what a variable holds of secret data (decision 0137): what the statement that set it
   * read or printed of the environment. A value made of plain data clears it.
   */
  hold(name: string, c: Carries | undefined): void {
    if (c !== undefined && holds(c)) this.carried.set(name, c);
    else this.carried.delete(name);
  }

  /** A program printed the environment: every open tap carries it. */
  printsEnvironment(how: string): void {
    this.printedEnvironment ??= how;
    for (const t of this.taps) t.environment ??= how;
  }

  /** Runs `f` and collects what it reads and prints of the environment: data a later send may carry. */
  tap<T>(f: () => T, from?: Carries): [T, Carries] {
    const t: Carries = { reads: [...(from?.reads ?? [])] };
    if (from?.environment !== undefined) t.environment = from.environment;
    if (from?.variables !== undefined) t.variables = [...from.variables];
    this.taps.push(t);
    try {
      return [f(), t];
    } finally {
      this.taps.splice(this.taps.lastIndexOf(t), 1);
    }
  }

  addLegacy(text: string): void {
    if (text.trim() !== "" && !this.legacy.includes(text)) this.legacy.push(text);
  }
}
