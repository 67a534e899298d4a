import { canonicalJson } from "../../core/json/jcs.js";
import { foldedValues } from "../../core/json/key-fold.js";
import type { Level } from "../../core/types.js";
import type { Gate, GateAnswer, HeldRequest, JudgeContext, ObservedResponse } from "../../core/gate/gate.js";
import type { TaintEvent } from "../../core/gate/session-judge.js";
import { escapeForTerminal } from "../../core/pins/escape.js";
import { instructionsFinding } from "../../core/pins/instructions.js";
import { identityFor } from "../../core/pins/identity.js";
import { approvedTools } from "../../core/pins/lock.js";
import { PinState } from "../../core/pins/state.js";
import { DEFAULT_LOCK, loadLock } from "../../config/lock-file.js";
import { pinCallAnswer } from "./pin-call-refusal.js";
import { checkListing } from "./pin-listings.js";

/**
 * Pins at run time. Every `tools/list` page the server sends is compared with the lock before
 * it is forwarded (the list itself is relayed unchanged: withholding tools would break clients
 * that cache lists; see docs/decisions/0027). A call to a tool that changed, appeared or cannot
 * be checked is refused at enforce and strict, and recorded at observe.
 */

export interface PinGateOptions {
  lockPath: string;
  identity: string;
  level: Level;
  serverArgv: string[];
  /**
   * The server showed a tool or instructions that differ from the lock's (a rug-pull): the model
   * has read text nobody approved, so the session takes it as untrusted content.
   */
  onRugPull?: (event: TaintEvent) => void;
  /** A remote server (`--url`): its URL as the pin identity spells it. */
  url?: string;
}

/** What a flagged tool did, for the taint record. */
const RUG_PULLED: Record<string, string> = {
  added: "appeared after approval",
  changed: "changed since it was approved",
  unverifiable: "cannot be checked against the lock",
};

const isObj = (v: unknown): v is Record<string, unknown> =>
  typeof v === "object" && v !== null && !Array.isArray(v);

/** The tool names the lock's entry for `identity` approves (empty when it has none). */
export function pinnedNames(lockPath: string, identity: string): Set<string> {
  const { lock } = loadLock(lockPath, { mustExist: true });
  const entry = Object.hasOwn(lock.servers, identity) ? lock.servers[identity] : undefined;
  return new Set(Object.keys(entry?.tools ?? {}));
}

export function createPinGate(opts: PinGateOptions): Gate {
  // Throws ConfigError (exit 78) for a missing, malformed or hand-edited lock.
  const { lock } = loadLock(opts.lockPath, { mustExist: true });
  const entry = Object.hasOwn(lock.servers, opts.identity) ? lock.servers[opts.identity] : undefined;
  const state = new PinState(entry ? approvedTools(entry) : undefined);

  const argvText = opts.serverArgv.join(" ");
  const unnamed = opts.url ?? identityFor(undefined, opts.serverArgv);
  const flags =
    (opts.lockPath === DEFAULT_LOCK ? "" : ` --lock ${opts.lockPath}`) +
    (opts.identity === unnamed ? "" : ` --name ${opts.identity}`);
  const target = opts.url !== undefined ? `--url ${opts.url}` : `-- ${argvText}`;
  const review = `effectgate approve --diff${flags} ${target}`;
  const approve = `effectgate approve${flags} ${target}`;

  // Facts known at start-up, said once the relay gives us a way to say them.
  const startNotes: { ev: Record<string, unknown>; line: string }[] = [];
  if (entry === undefined) {
    startNotes.push({
      ev: { kind: "no-entry", identity: opts.identity, lock: opts.lockPath },
      line: `pin: ${opts.lockPath} has no entry for ${JSON.stringify(opts.identity)}; ${opts.level === "observe" ? "calls are recorded" : "every tool call will be refused"} until you run: ${approve}`,
    });
  } else {
    const [command = "", ...args] = opts.serverArgv;
    const approvedAs = entry.url ?? [entry.command ?? "", ...(entry.args ?? [])].join(" ");
    const startedAs = opts.url ?? argvText;
    const same =
      opts.url !== undefined || entry.url !== undefined
        ? entry.url === opts.url
        : entry.command === command && canonicalJson(entry.args) === canonicalJson(args);
    if (!same) {
      startNotes.push({
        ev: {
          kind: "argv-mismatch",
          approved:
            entry.url !== undefined ? ["--url", entry.url] : [entry.command ?? "", ...(entry.args ?? [])],
          launched: opts.url !== undefined ? ["--url", opts.url] : opts.serverArgv,
        },
        line: `pin: the server was approved as ${JSON.stringify(approvedAs)} but is started as ${JSON.stringify(startedAs)}; review with: ${review}`,
      });
    }
  }
  /** Why every call is refused: the server's instructions differ from the approved ones. */
  let instructionsFlag: string | undefined;
  const rugPull = (ctx: JudgeContext, id: unknown, event: TaintEvent): void => {
    opts.onRugPull?.(event);
    ctx.record("taint", { id, by: event.by, reason: event.reason, why: event.why });
  };
  /** Drift in prompts, resource templates and resources already said this session. */
  const saidListings = new Set<string>();
  /**
   * Why every call is refused: an answer the lock pins was too large to read whole (it was cut
   * for reading, decision 0144). What the model read of it cannot be checked, so it may hold
   * text nobody approved: the session is tainted as by a rug-pull, never just noted as unread.
   */
  let unreadFlag: string | undefined;
  const unread = (ctx: JudgeContext, id: unknown, by: string, what: string): void => {
    if (entry === undefined) return; // nothing was approved: every call is refused anyway
    const why = `${what} was too large to read whole, so it could not be checked against the lock`;
    unreadFlag ??= why;
    rugPull(ctx, id, { by, reason: "rug-pull", why });
  };
  let started = false;
  const sayStartNotes = (ctx: JudgeContext): void => {
    if (started) return;
    started = true;
    for (const n of startNotes) {
      ctx.record("pin", n.ev);
      ctx.announce(escapeForTerminal(n.line));
    }
  };

  // Both steps: a review alone ends nowhere, and approving unreviewed text is what pins prevent.
  const next =
    entry === undefined
      ? `approve the server with: ${approve}`
      : `review the change with: ${review}, and if it is wanted, approve it with: ${approve}`;
  const rule = `pins ${opts.lockPath}`;

  /**
   * Instructions the server sends at start-up are checked against the lock like tools: added,
   * changed or unreadable ones refuse every call and taint the session; removed ones are noted.
   */
  const checkInstructions = (seen: ObservedResponse, ctx: JudgeContext): void => {
    const result = seen.response["result"];
    if (entry === undefined || !isObj(result)) return;
    if (seen.cut) {
      ctx.record("pin", { kind: "unreadable-instructions", got: "cut" });
      return unread(ctx, seen.request.id, "(server instructions)", `the ${seen.request.method} answer`);
    }
    // Every member a client may read as the instructions, a Go client's "Instructions" too.
    const readings = foldedValues(result, "instructions");
    for (const live of readings.length > 0 ? readings : [undefined]) {
      const f = instructionsFinding(entry.instructions, live);
      if (f === undefined) continue;
      ctx.record("pin", { kind: "instructions", severity: f.severity, sentences: [f.text] });
      ctx.announce(
        `pin: [${f.severity}] ${escapeForTerminal(f.text)}; review with: ${escapeForTerminal(review)}`,
      );
      if (f.severity === "low" || instructionsFlag !== undefined) continue;
      instructionsFlag = f.text;
      rugPull(ctx, seen.request.id, { by: "(server instructions)", reason: "rug-pull", why: f.text });
    }
  };

  return {
    recordsOnly: opts.level === "observe",
    async judge(req: HeldRequest, ctx: JudgeContext): Promise<GateAnswer> {
      sayStartNotes(ctx);
      if (req.method !== "tools/call") return { action: "forward" };
      const name = isObj(req.params) ? req.params["name"] : undefined;
      const check =
        instructionsFlag !== undefined
          ? {
              ok: false as const,
              reason: `the server's instructions differ from the approved ones (${instructionsFlag})`,
            }
          : unreadFlag !== undefined
            ? { ok: false as const, reason: unreadFlag }
            : typeof name === "string"
              ? state.checkCall(name)
              : { ok: false as const, reason: "the call names no tool, so its pin cannot be checked" };
      if (check.ok) return { action: "forward" };
      const tool = typeof name === "string" ? name : "(no name)";
      return pinCallAnswer(req, ctx, {
        tool,
        rule,
        reason: check.reason,
        level: opts.level,
        policySource: opts.lockPath,
        next,
      });
    },

    observe(seen: ObservedResponse, ctx: JudgeContext): void {
      sayStartNotes(ctx);
      const method = seen.request.method;
      if (method === "initialize" || method === "server/discover") return checkInstructions(seen, ctx);
      if (method !== "tools/list") {
        const rugPulled = (event: TaintEvent) => rugPull(ctx, seen.request.id, event);
        return checkListing(entry, seen, ctx, { review, rugPull: rugPulled, said: saidListings });
      }
      const result = seen.response["result"];
      if (!isObj(result)) return; // an error answer lists nothing
      if (seen.cut) {
        // Cut descriptions would read as changed ones; the list is only known to be too big.
        ctx.record("pin", { kind: "unreadable-list", got: "cut" });
        ctx.announce(
          "pin: a tools/list answer was too large to read whole (it was cut for reading); nothing in it was checked",
        );
        return unread(ctx, seen.request.id, "(tools/list)", "a tools/list answer");
      }
      // A Go client reads "Tools" or "NEXTCURSOR" as these members (last one winning): every list
      // any client may read is compared with the lock.
      const lists = foldedValues(result, "tools");
      if (lists.length === 0 || lists.some((tools) => !Array.isArray(tools))) {
        const got = lists.find((tools) => !Array.isArray(tools));
        ctx.record("pin", { kind: "unreadable-list", got: typeof got });
        ctx.announce("pin: a tools/list answer has no list of tools; nothing in it can be checked");
        if (lists.length === 0) return;
      }
      const first = !(isObj(seen.request.params) && seen.request.params["cursor"] !== undefined);
      const last = foldedValues(result, "nextCursor").every((c) => c === undefined || c === null);
      for (const tools of lists) {
        if (!Array.isArray(tools)) continue;
        for (const c of state.observeListDetailed(tools, { first, last })) {
          ctx.record("pin", { kind: c.kind, tool: c.tool, severity: c.severity, sentences: c.sentences });
          // Without an entry nothing was approved, so nothing was pulled: every call is refused anyway.
          const did = RUG_PULLED[c.kind];
          if (entry !== undefined && did !== undefined)
            rugPull(ctx, seen.request.id, { by: c.tool, reason: "rug-pull", why: `tool "${c.tool}" ${did}` });
          for (const s of c.sentences)
            ctx.announce(
              `pin: [${c.severity}] ${escapeForTerminal(s)}${c.kind === "removed" ? "" : `; review with: ${escapeForTerminal(review)}`}`,
            );
        }
      }
    },

    observeServerMessage(msg: Record<string, unknown>, ctx: JudgeContext): void {
      sayStartNotes(ctx);
      if (msg["method"] !== "notifications/tools/list_changed") return;
      state.listChanged();
      ctx.record("pin", { kind: "list-changed" });
    },
  };
}
