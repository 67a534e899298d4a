/**
 * A relay that stops before relaying anything (bad words, policy, lock or server) answers the
 * client's first request with the cause, then the error goes on to main.ts for its exit code.
 */
import { CannotStartError, ConfigError, EXIT, formatProblem, UsageError } from "../core/errors.js";
import type { StartupFailure } from "../core/wire/startup-answer.js";

/** What the client is told when the relay stops before relaying anything; null for other errors. */
function startupFailureOf(err: unknown): StartupFailure | null {
  if (err instanceof ConfigError) return { exitCode: EXIT.config, problems: err.problems.map(formatProblem) };
  if (err instanceof CannotStartError) return { exitCode: EXIT.cannotStart, problems: [err.message] };
  if (err instanceof UsageError) return { exitCode: EXIT.usage, problems: [err.message] };
  return null;
}

/** Failures whose first request was already answered, inside the session (and logged there). */
const answered = new WeakSet<object>();

/**
 * Answers the client's first request with the cause of `err`, once: `logged` hears the answer's
 * line before the client is sent it (a session whose log is open records it as effectgate's).
 */
export async function answerStartFailure(err: unknown, logged?: (line: string) => void): Promise<void> {
  const failure = startupFailureOf(err);
  if (!failure || (typeof err === "object" && err !== null && answered.has(err))) return;
  if (typeof err === "object" && err !== null) answered.add(err);
  // Loaded only when a start fails: no relay that starts pays for it.
  const { answerFirstRequest } = await import("../relay/session/startup-failure.js");
  await answerFirstRequest(
    { input: process.stdin, output: process.stdout, ...(logged ? { logged } : {}) },
    failure,
  );
  process.stdin.destroy();
}

/**
 * Runs the relay (its option parsing too): when it stops before relaying anything, the client
 * would only see "Connection closed", so its first request gets the cause instead
 * (docs/decisions/0086). The error is thrown on for main.ts to say and map to the exit code.
 */
export async function answeringStartFailures(start: () => Promise<number>): Promise<number> {
  try {
    return await start();
  } catch (err) {
    await answerStartFailure(err);
    throw err;
  }
}
