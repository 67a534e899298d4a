import { describeDestination } from "../net/destination-text.js";
import type { Decision, Level } from "../types.js";
import { MAX_QUESTION_CHARS } from "./ask-text.js";

/**
 * The words a refused call comes back with. They are read by the model (which should stop and
 * tell the user, not try another spelling) and by the user (who needs to know what to change).
 * Each refusal names the tool, what it would have touched, the rule, the policy, the level and
 * the ways out. The relay wraps the text in an `isError` result (docs/decisions/0020-refusal-shape.md).
 */
export type RefusalKind =
  /** A deny verdict at enforce or strict. */
  | "deny"
  /** A call that could not be judged (malformed, over budget, unplaceable path). */
  | "unjudgeable"
  /** A confirm verdict at strict, and the client cannot be asked. */
  | "cannot-ask"
  /** A confirm verdict at strict; the user said no or dismissed the question. */
  | "declined"
  /** A confirm verdict at strict; nobody could be asked now, and the question waits (`effectgate allow`). */
  | "pending"
  /** A call to a tool whose pin failed: changed, new, or not checkable against the lock. */
  | "pin"
  /** A confirm verdict at strict whose question would be too long to show whole (ask-text.ts). */
  | "too-long-to-ask";

export interface RefusalFacts {
  kind: RefusalKind;
  tool: string;
  method: string;
  params: unknown;
  decision: Decision;
  level: Level;
  /** `default` or the policy file's path; for a pin, the lock file's path. */
  policySource: string;
  /** For a pin: the command that reviews or approves the server. */
  next?: string;
  /** For a question not answered yes: why, in a few words. */
  askWhy?: string;
  /** For a question that waits: its id, for `effectgate allow ID`. */
  pendingId?: string;
}

const MAX_ARGS_SHOWN = 300;

/** The rule of effectgate's own files (decision 0068): built in, so no policy edit lifts it. */
export const OWN_FILES_RULE = "effectgate's own files";

/** Quote for a POSIX shell: the suggestion must be pasteable. */
function shellQuote(s: string): string {
  return `'${s.replace(/'/g, `'\\''`)}'`;
}

/** The `effectgate check` line that explains this decision, when the arguments are short enough to paste. */
export function checkCommand(
  f: Pick<RefusalFacts, "tool" | "method" | "params" | "policySource"> & { tainted?: boolean },
): string {
  // Reading a key of a string or number params gives undefined, as it does for an object without it.
  const p = (f.params ?? {}) as Record<string, unknown>;
  const policy =
    (f.policySource === "default" ? "" : ` --policy ${shellQuote(f.policySource)}`) +
    (f.tainted ? " --tainted" : "");
  if (f.method === "resources/read")
    return `effectgate check${policy} --method resources/read --args ${shellQuote(JSON.stringify({ uri: p["uri"] }))}`;
  let args: string;
  try {
    args = JSON.stringify(p["arguments"] ?? {});
  } catch {
    args = "{}"; // a cycle or BigInt cannot come from a parsed frame, but never throw here
  }
  const shown = args.length > MAX_ARGS_SHOWN ? "'<the same arguments>'" : shellQuote(args);
  const method = f.method === "prompts/get" ? " --method prompts/get" : "";
  return `effectgate check${policy}${method} --tool ${shellQuote(f.tool)} --args ${shown}`;
}

/** What the call would have touched: the canonical paths and commands behind the verdict. */
function target(d: Decision): string {
  // An egress rule decided: the deciding effect comes first (decide.ts), and names where it goes.
  const top = d.effects[0];
  if (d.rule?.startsWith("egress.") === true && top?.destination !== undefined)
    return `sending to ${describeDestination(top.destination)}`;
  const named = d.effects.filter((e) => e.kind !== "url" && e.kind !== "egress");
  // The effect the reason speaks of; the first one otherwise.
  const first = named.find((e) => e.canonical !== undefined && d.reason.includes(e.canonical)) ?? named[0];
  if (!first) return "";
  return first.kind === "command"
    ? `the command ${JSON.stringify(first.spelled)}`
    : `${first.canonical ?? first.spelled}`;
}

export function refusalText(f: RefusalFacts): string {
  if (f.kind === "pin") return pinRefusalText(f);
  const d = f.decision;
  const policy =
    f.policySource === "default" ? "the built-in default policy" : `the policy ${f.policySource}`;
  const rule = d.rule ?? "(none)";
  const lines: string[] = [];
  switch (f.kind) {
    case "deny":
      lines.push(`effectgate refused this call to "${f.tool}": ${d.reason}.`);
      break;
    case "unjudgeable":
      lines.push(
        `effectgate refused this call to "${f.tool}" because it could not be judged: ${d.unjudgeable ?? d.reason}.`,
      );
      break;
    case "cannot-ask":
      lines.push(`effectgate held this call to "${f.tool}" for the user's confirmation: ${d.reason}.`);
      lines.push("This client cannot be asked (it did not declare elicitation), so the call was refused.");
      break;
    case "declined":
      lines.push(
        `effectgate asked the user about this call to "${f.tool}" (${d.reason}); the user did not allow it, or the question went unanswered${f.askWhy === undefined ? "" : ` (${f.askWhy})`}.`,
      );
      break;
    case "pending":
      lines.push(`effectgate held this call to "${f.tool}" for the user's confirmation: ${d.reason}.`);
      lines.push(
        `Nobody could be asked in this client, so the question waits as ${f.pendingId ?? "(no id)"} and the call was refused for now.`,
      );
      break;
    case "too-long-to-ask":
      lines.push(`effectgate held this call to "${f.tool}" for the user's confirmation: ${d.reason}.`);
      lines.push(
        `Its effects are too long to show whole in a question (more than ${MAX_QUESTION_CHARS} characters), and a person cannot approve what they cannot read, so the call was refused.`,
      );
      break;
  }
  const what = target(d);
  lines.push(
    `Target: ${what === "" ? "(none)" : what}. Rule: ${rule}. Policy: ${policy}. Level: ${f.level}.${d.tainted ? " The session has taken in untrusted content." : ""}`,
  );
  lines.push(
    f.kind === "pending"
      ? `The call did not reach the server. Tell the user: to allow it, run \`effectgate allow ${f.pendingId ?? "ID"}\` in a terminal (\`effectgate pending\` lists what waits), then ask you to retry exactly this call. Do not retry it with another spelling.`
      : "The call did not reach the server. Do not retry it with another spelling; tell the user what was refused and why.",
  );
  const remedies: string[] = [];
  if (
    f.kind === "cannot-ask" ||
    f.kind === "declined" ||
    f.kind === "too-long-to-ask" ||
    f.kind === "pending"
  )
    remedies.push("run effectgate with --level enforce (confirm verdicts are then relayed with a notice)");
  if (f.kind === "unjudgeable")
    remedies.push(
      "send the call in a form effectgate can read (well-formed JSON, no duplicate keys, within the size budget)",
    );
  remedies.push(
    f.kind === "unjudgeable"
      ? "run with --level observe to record instead of refuse"
      : rule === OWN_FILES_RULE
        ? "change effectgate's own files outside this session (no policy lets the server it guards touch them)"
        : `edit or remove the rule "${rule}" in ${policy === "the built-in default policy" ? "a copy of the default policy passed with --policy FILE" : f.policySource}`,
  );
  remedies.push("set EFFECTGATE_OFF=1 for one run to turn every check off");
  lines.push(
    `The user can: ${remedies.join("; ")}. To see why: ${checkCommand({ ...f, tainted: d.tainted })}`,
  );
  return lines.join("\n");
}

/** A pin refusal names the lock and the command that reviews the change, not a policy rule. */
function pinRefusalText(f: RefusalFacts): string {
  return [
    `effectgate refused this call to "${f.tool}": ${f.decision.reason}.`,
    `Lock: ${f.policySource}. Level: ${f.level}.`,
    "The call did not reach the server. Do not retry it with another spelling; tell the user what was refused and why.",
    `The user can: ${f.next ?? "review the server's tools with effectgate approve --diff"}; run with --level observe to record instead of refuse; set EFFECTGATE_OFF=1 for one run to turn every check off.`,
  ].join("\n");
}
