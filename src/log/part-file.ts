import { basename, join } from "node:path";
import { createPrivateFile, ensurePrivateDir, type FileIo } from "../platform/secure-file.js";
import { partFileName } from "./naming.js";

/**
 * The file side of the session log: the part currently open, its size, creating the next part,
 * and whole-buffer writes that never leave a torn line behind. Record numbering, gaps and
 * warnings live in writer.ts.
 */

// Errors after which the same descriptor is worth trying again (space may come back); any other
// write error abandons the descriptor and the next record starts a new part.
const RETRY_SAME_FD = new Set(["ENOSPC", "EDQUOT", "EAGAIN", "EINTR"]);

export function describeError(err: unknown): string {
  const e = err as NodeJS.ErrnoException | null;
  if (e && typeof e.message === "string")
    return e.code && !e.message.startsWith(e.code) ? `${e.code}: ${e.message}` : e.message;
  return String(err);
}

export class PartFile {
  fd: number | null = null;
  /** The part open now, or the last one opened; null before any file could be created. */
  path: string | null = null;
  size = 0;
  /** Number of the last part created (0: none yet). */
  part = 0;
  lastError = "";
  /** Set when a write error made this part unusable: the next part says why it exists. */
  abandoned = false;

  constructor(
    private readonly dir: string,
    private readonly io: FileIo,
    private readonly platform: NodeJS.Platform,
    private readonly onDirWarning: (line: string) => void,
  ) {}

  /**
   * Create the next part in an owner-only folder. On a name clash, `rename` may give a new base
   * (only before anything was logged); otherwise the part number moves on. Throws when no file
   * can be created.
   */
  openNext(base: () => string, rename: (() => void) | null): void {
    const dirState = ensurePrivateDir(this.dir, { io: this.io, platform: this.platform });
    if (dirState.warning) this.onDirWarning(dirState.warning);
    for (let attempt = 0; ; attempt++) {
      const path = join(this.dir, partFileName(base(), this.part + 1));
      try {
        this.fd = createPrivateFile(path, { io: this.io, platform: this.platform });
      } catch (err) {
        if ((err as NodeJS.ErrnoException | null)?.code !== "EEXIST" || attempt >= 16) throw err;
        if (rename) rename();
        else this.part += 1;
        continue;
      }
      this.part += 1;
      this.path = path;
      this.size = 0;
      this.abandoned = false;
      return;
    }
  }

  /** The current part's file name, for `rotated {from}`. */
  name(): string {
    return basename(this.path ?? "");
  }

  /**
   * Write all of `buf` (or of each part in turn: one record, never copied into one buffer),
   * looping over short writes. False (with lastError) when it failed.
   */
  write(buf: Buffer | readonly Buffer[]): boolean {
    const fd = this.fd;
    if (fd === null) return false;
    let off = 0;
    try {
      for (const part of Buffer.isBuffer(buf) ? [buf] : buf) {
        for (let at = 0; at < part.length;) {
          const n = this.io.writeSync(fd, part, at, part.length - at);
          if (n <= 0) throw new Error(`write returned ${n} bytes`);
          at += n;
          off += n;
        }
      }
      this.size += off;
      return true;
    } catch (err) {
      this.lastError = describeError(err);
      // Cut back to the last whole record, even when no byte was reported written: what a failed
      // write did to the file is not something to trust.
      let torn = false;
      try {
        this.io.ftruncateSync(fd, this.size);
      } catch {
        torn = off > 0;
        if (torn) this.size += off; // the torn tail stays; this part is finished
      }
      const code = (err as NodeJS.ErrnoException | null)?.code ?? "";
      if (torn || !RETRY_SAME_FD.has(code)) {
        this.abandoned = true;
        this.close();
      }
      return false;
    }
  }

  /** Remove a just-created part that holds nothing, so its number is used again. */
  discardIfEmpty(previousPath: string | null): void {
    const path = this.path;
    this.close();
    if (path === null || this.size !== 0) return;
    try {
      this.io.unlinkSync(path);
      this.part -= 1;
      this.path = previousPath;
    } catch {
      /* it stays as an empty file; the next part takes the next number */
    }
  }

  close(): void {
    const fd = this.fd;
    this.fd = null;
    if (fd === null) return;
    try {
      this.io.closeSync(fd);
    } catch {
      /* already gone (EBADF): nothing left to release */
    }
  }
}
