/**
 * One sign-in at a time per remote server, across processes (decision 0116). Two relays started
 * together for one URL would otherwise both register, both open a browser and each overwrite
 * the other's tokens. The first to create the lock file (O_EXCL, owner-only, next to the token
 * file) signs in; the others wait for the file to go, then read the tokens it saved. A lock whose
 * process is gone, or older than the sign-in timeout, is stale and taken over.
 */
import { randomBytes } from "node:crypto";
import * as fs from "node:fs";
import { lockIsStale, readLockHolder } from "../../../core/remote/sign-in-lock.js";
import { createPrivateFile } from "../../../platform/secure-file.js";

export interface SignInLockOptions {
  path: string;
  /** How long a sign-in may take: a lock older than this is stale. */
  timeoutMs: number;
  /** How often a waiting process looks at the lock again. */
  pollMs?: number;
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    // EPERM: the process exists but is another user's.
    return (err as NodeJS.ErrnoException).code === "EPERM";
  }
}

export class SignInLock {
  private held = false;

  constructor(private readonly o: SignInLockOptions) {}

  get path(): string {
    return this.o.path;
  }

  /**
   * Takes the lock: "held" when this process may sign in, "busy" when another live process is
   * signing in. A lock that cannot be made at all (a folder it cannot write) is said by the
   * error; the caller signs in without it rather than not at all.
   */
  acquire(): "held" | "busy" {
    if (this.held) return "held";
    for (let tries = 0; tries < 3; tries++) {
      try {
        const fd = createPrivateFile(this.o.path);
        try {
          fs.writeSync(fd, JSON.stringify({ pid: process.pid, since: Date.now() }));
        } finally {
          fs.closeSync(fd);
        }
        this.held = true;
        return "held";
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code !== "EEXIST") throw err;
      }
      if (!this.takeOverStale()) return "busy";
    }
    return "busy";
  }

  /** Whether another process holds a live lock now. */
  busy(): boolean {
    if (this.held) return false;
    const text = this.readLock();
    if (text === undefined) return false;
    return !lockIsStale(readLockHolder(text), { now: Date.now(), timeoutMs: this.o.timeoutMs, alive });
  }

  /** Resolves once no other process holds the lock (it finished, died or timed out). */
  async released(): Promise<void> {
    while (this.busy()) await new Promise((r) => setTimeout(r, this.o.pollMs ?? 200));
  }

  /** Gives the lock up (after the tokens are saved, or when the sign-in failed). */
  release(): void {
    if (!this.held) return;
    this.held = false;
    try {
      const holder = readLockHolder(this.readLock() ?? "");
      // Only our own lock: a stale takeover by another process is theirs now.
      if (holder?.pid === process.pid) fs.unlinkSync(this.o.path);
    } catch {
      /* already gone */
    }
  }

  private readLock(): string | undefined {
    try {
      return fs.readFileSync(this.o.path, "utf8");
    } catch {
      return undefined;
    }
  }

  /**
   * Removes a stale lock so that the next create may succeed. The lock is renamed away first
   * (only one process can rename it), then checked again: a fresh lock renamed by mistake (its
   * owner wrote it between our read and our rename) is put back.
   */
  private takeOverStale(): boolean {
    const text = this.readLock();
    if (text === undefined) return true; // gone meanwhile: try again
    const opts = { now: Date.now(), timeoutMs: this.o.timeoutMs, alive };
    if (!lockIsStale(readLockHolder(text), opts)) return false;
    const aside = `${this.o.path}.stale.${process.pid}.${randomBytes(4).toString("hex")}`;
    try {
      fs.renameSync(this.o.path, aside);
    } catch {
      return true; // another process took it over first: try again
    }
    let moved: string | undefined;
    try {
      moved = fs.readFileSync(aside, "utf8");
    } catch {
      moved = undefined;
    }
    if (moved !== text && !lockIsStale(readLockHolder(moved ?? ""), opts)) {
      try {
        fs.linkSync(aside, this.o.path);
      } catch {
        /* a new lock is there already */
      }
      fs.rmSync(aside, { force: true });
      return false;
    }
    fs.rmSync(aside, { force: true });
    return true;
  }
}
