/**
 * What the server side says about answers it cannot simply pass on: an answer to no known
 * request, one to a call the server never received, one only a lax client would match, and a
 * gate that failed to inspect a message. Each is logged every time and said on stderr once.
 */
import type { AnswerReading } from "../../core/wire/answer-readings.js";
import type { Pending } from "./correlate.js";
import type { RelayLog } from "../session/types.js";

export class AnswerNotices {
  private readonly counts = { unmatched: 0, dropped: 0, loose: 0, observeFailures: 0 };

  constructor(
    private readonly log: RelayLog,
    private readonly announce: (line: string) => void,
  ) {}

  /** An answer to no request effectgate knows of; it is still scanned (decision 0066). */
  unmatched(readingId: unknown, readings: number): void {
    const id = readingId === undefined ? null : readingId;
    this.log.event("answer-unmatched", { id, readings });
    if (this.counts.unmatched++ === 0)
      this.announce(
        `the server sent an answer with id ${JSON.stringify(id)}, which answers no request effectgate knows of; it was scanned as untrusted content`,
      );
  }

  /** A response to a request the server never received: never forwarded (decision 0063). */
  dropped(r: AnswerReading, why: "held" | "refused"): void {
    const id = r.id === undefined ? null : r.id;
    const what =
      why === "held" ? "a call effectgate is still judging or asking about" : "a call effectgate refused";
    this.log.event("answer-dropped", { id, why, reading: r.how });
    if (this.counts.dropped++ === 0)
      this.announce(
        `the server sent an answer with id ${JSON.stringify(id)}, the id of ${what}, which it never received; the answer was dropped`,
      );
  }

  /**
   * A reading that answers no request exactly, but that some client could take for one
   * (correlate.ts, answer-readings.ts): checked as an answer, and said once.
   */
  loose(reading: AnswerReading, answers: readonly Pending[]): void {
    const id = reading.id === undefined ? null : reading.id;
    const to = answers.map((a) => `${a.request.method} ${JSON.stringify(a.request.id)}`).join(", ");
    const sameId = answers.some((a) => a.request.id === id);
    // Why effectgate's own reading is not that answer: a member in another case, a message that
    // is not a well-formed response, or an id only a lax client matches.
    const why = reading.how === "case-folded" ? "case-folded" : sameId ? "not-a-response" : "loose-id";
    this.log.event("loose-id", {
      id,
      answers: answers.map((a) => a.request.id),
      ...(why === "loose-id" ? {} : { reading: why }),
    });
    if (this.counts.loose++ > 0) return;
    const how =
      why === "case-folded"
        ? "with member names in another case, which clients that ignore case (Go) read"
        : why === "not-a-response"
          ? "in a message that is not a well-formed response, which a lax client (Python) still reads"
          : `with id ${JSON.stringify(id)}, which no request has`;
    this.announce(
      `the server answered ${how}; a client may take it for ${to}, so it was checked as that answer`,
    );
  }

  observeFailed(err: unknown): void {
    const message = err instanceof Error ? err.message : String(err);
    this.log.event("observe-error", { error: message });
    if (this.counts.observeFailures++ === 0)
      this.announce(`the gate failed to inspect a server message: ${message}`);
  }
}
