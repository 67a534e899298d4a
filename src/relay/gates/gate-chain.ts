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
    async judge(req: HeldRequest, ctx: JudgeContext): Promise<GateAnswer> {
      let last: GateAnswer = { action: "forward" };
      for (const gate of gates) {
        const answer = await gate.judge(req, ctx);
        if (answer.action === "refuse") return answer;
        last = answer;
      }
      return last;
    },
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
