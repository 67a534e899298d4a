// A test-double Gate: refuses calls whose arguments mention "secret" and every call with a
// problem; asks (when it can) about calls named "ask"; waits on `hold` when given; records all.
import type {
  Gate,
  GateAnswer,
  HeldRequest,
  JudgeContext,
  ObservedResponse,
} from "../../src/core/gate/gate.js";

export class DoubleGate implements Gate {
  readonly judged: HeldRequest[] = [];
  readonly observed: ObservedResponse[] = [];
  readonly serverMessages: Record<string, unknown>[] = [];
  readonly asks: string[] = [];
  canAsk: boolean[] = [];
  hold: Promise<void> | undefined;

  async judge(req: HeldRequest, ctx: JudgeContext): Promise<GateAnswer> {
    this.judged.push(req);
    this.canAsk.push(ctx.canAsk === true);
    if (this.hold) await this.hold;
    if (req.problem !== undefined) return { action: "refuse", text: `cannot judge: ${req.problem}` };
    const params = req.params as { name?: string; arguments?: unknown } | undefined;
    if (JSON.stringify(params?.arguments ?? {}).includes("secret"))
      return { action: "refuse", text: `refused ${params?.name ?? req.method}: it touches a secret` };
    if (params?.name === "ask") {
      if (ctx.canAsk !== true) return { action: "refuse", text: "nobody to ask" };
      return {
        action: "ask",
        question: "Allow ask?",
        settle: (answer) => {
          this.asks.push(answer);
          return answer === "accept"
            ? { action: "forward" }
            : { action: "refuse", text: `the user said ${answer}` };
        },
      };
    }
    return { action: "forward" };
  }

  observe(seen: ObservedResponse): void {
    this.observed.push(seen);
  }

  observeServerMessage(msg: Record<string, unknown>): void {
    this.serverMessages.push(msg);
  }
}
