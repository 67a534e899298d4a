// A progress line for long runs: on a terminal only, rewritten in place on stderr, and gone
// when the run is done. On a pipe or a file nothing is written, so logs and scripts stay clean.

/** Progress is said at most this often, so that saying it never slows the run. */
const EVERY_MS = 100;

export interface Progress {
  /** `done` of `of` are finished. */
  set(done: number, of: number): void;
  /** One more is finished, of an unknown total. */
  tick(): void;
  /** Clears the line. */
  end(): void;
}

export function progressLine(
  stream: { isTTY?: boolean; write(s: string): unknown },
  what: string,
  clock: () => number = Date.now,
): Progress {
  if (stream.isTTY !== true) return { set: () => undefined, tick: () => undefined, end: () => undefined };
  let shown = false;
  let last = -Infinity;
  let count = 0;
  const say = (text: string): void => {
    const now = clock();
    if (now - last < EVERY_MS) return;
    last = now;
    shown = true;
    // \r and erase-line: one line, redrawn, however long the run.
    stream.write(`\r\x1b[2Keffectgate eval: ${what} ${text}`);
  };
  return {
    set: (done, of) => say(`${done}/${of}`),
    tick: () => say(`(${++count} runs)`),
    end: () => {
      if (shown) stream.write("\r\x1b[2K");
      shown = false;
      last = -Infinity;
    },
  };
}
