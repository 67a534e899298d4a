/**
 * When the relay cannot start (a policy or lock that does not load, a server that cannot be
 * started), it still reads the client's first request and answers it with an error naming the
 * cause (core/wire/startup-answer.ts), then the CLI exits with the failure's code. Bounded: a
 * terminal on stdin is not waited for, and a client that sends no request within `waitMs` or
 * closes its output gets nothing. See docs/decisions/0086.
 */
import type { Readable, Writable } from "node:stream";
import { LineSplitter, type Frame } from "../../core/framing/line-splitter.js";
import { startupAnswer, type StartupFailure } from "../../core/wire/startup-answer.js";

/** Clients send `initialize` the moment the process starts; this only bounds a silent one. */
const STARTUP_ANSWER_WAIT_MS = 10_000;
/** A first request longer than this is not read: a client's `initialize` is a few hundred bytes. */
const MAX_FIRST_FRAME_BYTES = 1024 * 1024;

export interface StartupIo {
  input: Readable & { isTTY?: boolean };
  output: Writable;
  /** Hears the answer's line (without its LF) before it is written: the session log keeps it. */
  logged?: (line: string) => void;
}

/** Resolves once the first request is answered (and written), or when there is none to answer. */
export function answerFirstRequest(
  io: StartupIo,
  failure: StartupFailure,
  waitMs = STARTUP_ANSWER_WAIT_MS,
): Promise<void> {
  const { input, output } = io;
  if (input.isTTY) return Promise.resolve();
  return new Promise((resolve) => {
    const lines = new LineSplitter(MAX_FIRST_FRAME_BYTES);
    let done = false;
    let answered = false;
    const finish = (): void => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      input.off("data", onData);
      input.off("end", onEnd);
      input.off("error", onEnd);
      input.pause();
      resolve();
    };
    const onFrame = (frame: Frame): void => {
      if (answered || done) return; // one answer, even for a second frame in the same chunk
      const answer = startupAnswer(frame.bytes.toString("utf8"), failure);
      if (answer === undefined) return;
      answered = true;
      io.logged?.(answer);
      output.write(`${answer}\n`, () => finish());
    };
    const onData = (chunk: Buffer): void => {
      if (!lines.push(chunk, onFrame)) finish();
    };
    const onEnd = (): void => {
      lines.end(onFrame);
      if (!answered) finish();
    };
    const timer = setTimeout(finish, waitMs);
    input.on("data", onData);
    input.once("end", onEnd);
    input.once("error", onEnd);
  });
}
