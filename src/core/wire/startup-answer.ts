/**
 * The answer a relay that cannot start gives the client's first request (docs/decisions/0086).
 * A client shows a closed connection as "Connection closed" and nothing more; a JSON-RPC error on
 * the request it waits on puts the cause where the user looks. An error, not a result: there is
 * no session, and every client reports a failed `initialize` with its message.
 */
import { parseStrictJson } from "../json/strict-json.js";
import { messageIdSpellings } from "./answer-readings.js";
import { classify, isRoundedIntegerId, type Classified } from "./jsonrpc.js";

/** JSON-RPC's "Internal error": the proxy itself failed, before any server could answer. */
export const STARTUP_ERROR_CODE = -32603;

export interface StartupFailure {
  /** What effectgate exits with right after: 78 (configuration), 127 (no server) or 2 (usage). */
  exitCode: number;
  /** One line per problem, as stderr says them (without the `effectgate: ` prefix). */
  problems: readonly string[];
}

/** The error's message: what failed and every problem, on one line. */
export function startupMessage(f: StartupFailure): string {
  const kind = f.exitCode === 78 ? ", configuration error" : f.exitCode === 2 ? ", usage error" : "";
  return `effectgate cannot start (exit ${f.exitCode}${kind}): ${f.problems.join("; ")}`;
}

function errorMember(idText: string, f: StartupFailure): string {
  const error = {
    code: STARTUP_ERROR_CODE,
    message: startupMessage(f),
    data: { effectgate: { exitCode: f.exitCode, problems: f.problems } },
  };
  return `{"jsonrpc":"2.0","id":${idText},"error":${JSON.stringify(error)}}`;
}

/** The request's id as JSON text: the client's own digits for an integer JSON.parse rounds. */
function idText(c: Extract<Classified, { kind: "request" }>, spelling: string | undefined): string {
  return isRoundedIntegerId(c.id) && spelling !== undefined ? spelling : JSON.stringify(c.id);
}

/**
 * The answer frame (no newline) for one frame the client sent, or undefined when the frame holds
 * no request (a notification, a response, text that is not JSON): the relay waits for the next.
 * A batch gets an array with an error for each of its requests.
 */
export function startupAnswer(frame: string, f: StartupFailure): string | undefined {
  const parsed = parseStrictJson(frame);
  if (!parsed.ok) return undefined;
  const c = classify(parsed.value);
  if (c.kind === "request") return errorMember(idText(c, messageIdSpellings(frame).get(0)), f);
  if (c.kind !== "batch") return undefined;
  const spellings = messageIdSpellings(frame);
  const answers = c.members.flatMap((m, i) =>
    m.kind === "request" ? [errorMember(idText(m, spellings.get(i)), f)] : [],
  );
  return answers.length === 0 ? undefined : `[${answers.join(",")}]`;
}
