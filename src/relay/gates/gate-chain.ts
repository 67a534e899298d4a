import type { Gate, GateAnswer, HeldRequest, JudgeContext, ObservedResponse } from "../../core/gate/gate.js";

/**
 * Several judges in front of one server (pins, then policy). The first refusal wins, so a
 * changed tool is refused for what it is before its arguments are weighed; every gate sees
 * every response, so taint and pin state never depend on which gate spoke last.
 *
 * The observation hooks stay synchronous while every gate's hook is: a promise would cost each
 * server frame an event-loop turn. A hook no gate defines is left undefined, so the relay does
 * not parse frames nobody wants to see.
 */
export function chainGates(gates: readonly Gate[]): Gate {
  if (gates.length === 1 && gates[0]) return gates[0];
  const chained: Gate = {
    recordsOnly: gates.every((g) => g.recordsOnly === true),
    judge: (req: HeldRequest, ctx: JudgeContext) => judgeFrom(gates, 0, req, ctx, false),
  };
  const observers = gates.filter((g) => g.observe);
  if (observers.length > 0)
    chained.observe = (seen: ObservedResponse, ctx: JudgeContext) =>
      inTurn(observers.map((g) => () => g.observe?.(seen, ctx)));
  const watchers = gates.filter((g) => g.observeServerMessage);
  if (watchers.length > 0)
    chained.observeServerMessage = (msg: Record<string, unknown>, ctx: JudgeContext) =>
      inTurn(watchers.map((g) => () => g.observeServerMessage?.(msg, ctx)));
  return chained;
}

/**
 * The gates from `from` on. A question stops the chain until its reply: accepted, the call still
 * goes before the gates after it. `wouldRefuse` is any gate's: at observe a pin that failed
 * makes the call one enforce refuses, whatever the policy says of it.
 */
async function judgeFrom(
  gates: readonly Gate[],
  from: number,
  req: HeldRequest,
  ctx: JudgeContext,
  wouldRefuseSoFar: boolean,
): Promise<GateAnswer> {
  let last: GateAnswer = { action: "forward" };
  let wouldRefuse = wouldRefuseSoFar;
  for (let i = from; i < gates.length; i++) {
    const answer = await (gates[i] as Gate).judge(req, ctx);
    const would = (wouldRefuse ||= answer.wouldRefuse === true);
    const carried = would ? { wouldRefuse: true } : {};
    if (answer.action === "refuse") return { ...answer, ...carried };
    if (answer.action === "ask")
      return {
        ...answer,
        ...carried,
        settle: async (reply, how) => {
          const settled = await answer.settle(reply, how);
          if (settled.action !== "forward") return settled;
          return judgeFrom(gates, i + 1, req, ctx, would || settled.wouldRefuse === true);
        },
      };
    last = { ...answer, ...carried };
  }
  return last;
}

/**
 * Runs hooks one after another. Stays synchronous until a hook returns a promise; the rest then
 * wait for it, so the order is the same either way.
 */
export function inTurn(hooks: ReadonlyArray<() => void | Promise<void>>, from = 0): void | Promise<void> {
  for (let i = from; i < hooks.length; i++) {
    const r = (hooks[i] as () => void | Promise<void>)();
    if (r instanceof Promise) return r.then(() => inTurn(hooks, i + 1));
  }
  return undefined;
}
