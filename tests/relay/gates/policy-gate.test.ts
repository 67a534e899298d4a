import { describe, expect, it } from "vitest";
import type { Gate, GateAnswer, HeldRequest, JudgeContext } from "../../../src/core/gate/gate.js";
import type { Level } from "../../../src/core/types.js";
import { LOGGED_EFFECT_CHARS } from "../../../src/core/gate/logged-effect.js";
import { createPolicyGate } from "../../../src/relay/gates/policy-gate.js";
import { LogRecord } from "../../../src/log/records.js";
import { call, judgeOf } from "../../helpers/judge.js";

interface Seen {
  log: Array<[string, Record<string, unknown>]>;
  lines: string[];
  asked: string[];
}

function ctxOf(answer?: "accept" | "decline" | "cancel" | "throw"): { ctx: JudgeContext; seen: Seen } {
  const seen: Seen = { log: [], lines: [], asked: [] };
  const ctx: JudgeContext = {
    record: (ev, data) => seen.log.push([ev, data]),
    announce: (line) => seen.lines.push(line),
  };
  if (answer !== undefined) {
    ctx.canAsk = true;
    replies.set(ctx, { answer, seen });
  }
  return { ctx, seen };
}

/** What the relay does with a gate's question: put it, and settle the call with the reply. */
const replies = new Map<JudgeContext, { answer: "accept" | "decline" | "cancel" | "throw"; seen: Seen }>();
async function judged(g: Gate, req: HeldRequest, ctx: JudgeContext): Promise<GateAnswer> {
  let a = await g.judge(req, ctx);
  while (a.action === "ask") {
    const r = replies.get(ctx);
    if (!r) throw new Error("the gate asked a context that cannot be asked");
    r.seen.asked.push(a.question);
    a = await a.settle(r.answer === "throw" ? "failed" : r.answer);
  }
  return a;
}

const held = (name: string, args: Record<string, unknown>, problem?: string): HeldRequest => ({
  method: "tools/call",
  id: 7,
  params: call(name, args),
  modern: false,
  ...(problem ? { problem } : {}),
});

const gateAt = (level: Level, tainted = false) =>
  createPolicyGate({ judge: judgeOf({ tainted }), level, policySource: "default" });
const DENY = held("write_file", { path: "~/.ssh/authorized_keys" });
const CONFIRM = held("write_file", { path: "package.json" });
const ALLOW = held("write_file", { path: "notes.md" });

describe("policy gate", () => {
  it("observe forwards everything and records every non-allow decision and every allow with effects", async () => {
    const { ctx, seen } = ctxOf();
    const g = gateAt("observe");
    expect((await judged(g, DENY, ctx)).action).toBe("forward");
    expect((await judged(g, CONFIRM, ctx)).action).toBe("forward");
    expect((await judged(g, ALLOW, ctx)).action).toBe("forward");
    expect((await judged(g, held("list_allowed_directories", {}), ctx)).action).toBe("forward");
    expect((await judged(g, held("x", {}, "duplicate key"), ctx)).action).toBe("forward");
    expect(seen.log.map(([ev, d]) => `${ev} ${String(d["verdict"])} ${String(d["outcome"])}`)).toEqual([
      "decision deny forward",
      "decision confirm forward",
      "decision allow forward",
      "decision deny forward",
    ]);
    // The allowed write names what it touches, canonical, for replay (decision 0094).
    expect(seen.log[2]?.[1]["effects"]).toEqual([
      expect.objectContaining({ operation: "write", canonical: "/home/user/project/notes.md" }),
    ]);
  });

  it("enforce refuses deny (recorded first) and relays confirm with one notice per tool and rule", async () => {
    const { ctx, seen } = ctxOf();
    const g = gateAt("enforce");
    const a = await judged(g, DENY, ctx);
    expect(a.action).toBe("refuse");
    if (a.action === "refuse") {
      expect(a.text).toContain("write_file");
      expect(a.text).toContain("/home/user/.ssh/authorized_keys");
      expect(a.text).toContain("paths.deny ~/.ssh/**");
      expect(a.text).toContain("EFFECTGATE_OFF=1");
      expect(a.text).toContain("effectgate check");
    }
    const [ev, data] = seen.log[0] ?? [];
    expect(ev).toBe("decision");
    expect(data).toMatchObject({
      id: 7,
      method: "tools/call",
      tool: "write_file",
      verdict: "deny",
      outcome: "refuse",
      rule: "paths.deny ~/.ssh/**",
      tainted: false,
      level: "enforce",
    });
    // Valid as a log event record.
    expect(
      LogRecord.safeParse({
        seq: 1,
        t: "2026-01-01T00:00:00.000Z",
        sid: "s",
        type: "event",
        ev,
        data: JSON.parse(JSON.stringify(data)),
      }).success,
    ).toBe(true);
    expect((await judged(g, CONFIRM, ctx)).action).toBe("forward");
    expect((await judged(g, CONFIRM, ctx)).action).toBe("forward");
    expect(seen.lines).toHaveLength(1);
    expect(seen.lines[0]).toContain("paths.confirm **/package.json");
    // The relay adds the "effectgate: " prefix to every announced line; the gate must not.
    expect(seen.lines[0]).toMatch(/^allowed but noted: /);
  });

  it("enforce and strict refuse an unjudgeable call with its reason", async () => {
    for (const level of ["enforce", "strict"] as const) {
      const { ctx } = ctxOf("accept");
      const a = await judged(gateAt(level), held("write_file", { path: "x" }, 'duplicate key "path"'), ctx);
      expect(a.action).toBe("refuse");
      if (a.action === "refuse") expect(a.text).toContain('duplicate key "path"');
    }
  });

  it("strict asks and forwards on accept, refuses on decline, cancel or failure", async () => {
    for (const [answer, action] of [
      ["accept", "forward"],
      ["decline", "refuse"],
      ["cancel", "refuse"],
      ["throw", "refuse"],
    ] as const) {
      const { ctx, seen } = ctxOf(answer);
      const a = await judged(gateAt("strict"), CONFIRM, ctx);
      expect(a.action, answer).toBe(action);
      expect(seen.asked[0]).toContain("package.json");
      expect(seen.log).toHaveLength(1);
    }
  });

  it("strict refuses a confirm when the client cannot be asked, and says so", async () => {
    const { ctx, seen } = ctxOf();
    const a = await judged(gateAt("strict"), CONFIRM, ctx);
    expect(a.action).toBe("refuse");
    if (a.action === "refuse") expect(a.text).toMatch(/cannot be asked/);
    expect(seen.log[0]?.[1]["outcome"]).toBe("ask-unavailable");
  });

  it("records taint events from observed responses before later calls are judged", async () => {
    const { ctx, seen } = ctxOf();
    const g = gateAt("enforce");
    await g.observe?.(
      {
        request: { method: "tools/call", id: 3, params: call("fetch", { url: "https://e.example" }) },
        response: { jsonrpc: "2.0", id: 3, result: { content: [] } },
      },
      ctx,
    );
    expect(seen.log.map(([ev, d]) => `${ev} ${String(d["reason"])}`)).toEqual(["taint source", "taint url"]);
    const a = await judged(g, held("bash", { command: "make" }), ctx);
    expect(a.action).toBe("refuse");
  });
});

describe("scan extent", () => {
  it("records a response whose text went past the scan budget, with the call's id", async () => {
    const { ctx, seen } = ctxOf();
    const g = gateAt("observe");
    const request = { method: "tools/call", id: "r-9", params: call("read_text_file", { path: "big.log" }) };
    const answer = (n: number) => ({
      jsonrpc: "2.0",
      id: "r-9",
      result: { content: [{ type: "text", text: "z".repeat(n) }] },
    });
    await g.observe?.({ request, response: answer(1000) }, ctx);
    expect(seen.log).toEqual([]);
    await g.observe?.({ request, response: answer(5 * 1024 * 1024) }, ctx);
    // "text" and the z's: the windows hold 4 MiB of it, less the line break after "text".
    expect(seen.log).toEqual([
      [
        "scan-partial",
        { id: "r-9", scanned: 4 * 1024 * 1024 - 1, of: 5 * 1024 * 1024 + 4, layersLeft: 0, revealCapped: 0 },
      ],
      // What was not scanned counts as untrusted, and the log says why (issue 17, breach 3).
      [
        "taint",
        {
          id: "r-9",
          by: "read_text_file",
          reason: "unscanned",
          why: `the content scan read ${4 * 1024 * 1024 - 1} of ${5 * 1024 * 1024 + 4} characters of text; what it did not read counts as untrusted`,
        },
      ],
    ]);
  });

  it("taints the session when the frame was cut before the scan's share was kept", async () => {
    const { ctx, seen } = ctxOf();
    const g = gateAt("enforce");
    const request = { method: "tools/call", id: 4, params: call("read_text_file", { path: "a.txt" }) };
    const response = { jsonrpc: "2.0", id: 4, result: { content: [{ type: "text", text: "ok" }] } };
    await g.observe?.({ request, response, cut: true, scanCut: true }, ctx);
    expect(seen.log.map(([ev, d]) => [ev, d["frameCut"] ?? d["reason"]])).toEqual([
      ["scan-partial", true],
      ["taint", "unscanned"],
    ]);
    const a = await g.judge(held("bash", { command: "make" }), ctx);
    expect(a.action).toBe("refuse");
  });
});

describe("decision events for large calls", () => {
  it("keep the deciding effect first and say how many were left out", async () => {
    const { ctx, seen } = ctxOf();
    const paths = [...Array.from({ length: 100 }, (_, i) => `f${i}.txt`), "~/.aws/config"];
    await judged(gateAt("enforce"), held("write_many", { paths }), ctx);
    const data = seen.log[0]?.[1] ?? {};
    const effects = data["effects"] as Array<{ spelled: string }>;
    expect(effects).toHaveLength(64);
    expect(effects[0]?.spelled).toBe("~/.aws/config");
    // Each path is written and read (write_many is no reader only), and `~/.aws/config` has two
    // readings of each: `~` expanded, and taken literally (decision 0061).
    expect(data["effectsOmitted"]).toBe(2 * 102 - 64);
  });

  it("cut a long text of an effect to a bounded length and say how long it was", async () => {
    const { ctx, seen } = ctxOf();
    // An unknown tool's string is read as a possible path (read and write): 4 MiB of it made a
    // record of 8 MiB per call before the cut.
    const text = `src/${"y".repeat(LOGGED_EFFECT_CHARS * 4)}`;
    await judged(gateAt("enforce"), held("echo", { text }), ctx);
    const data = seen.log[0]?.[1] ?? {};
    const effects = data["effects"] as Array<Record<string, unknown>>;
    expect(effects.length).toBeGreaterThan(0);
    for (const e of effects) {
      expect(e["spelled"]).toBe(text.slice(0, LOGGED_EFFECT_CHARS));
      expect(e["cut"]).toMatchObject({ spelled: text.length });
      expect(String(e["canonical"]).length).toBeLessThanOrEqual(LOGGED_EFFECT_CHARS);
    }
    expect(JSON.stringify(data).length).toBeLessThan(effects.length * 3 * LOGGED_EFFECT_CHARS);
    // A short one is recorded as it is, with no `cut`.
    const short = ctxOf();
    await judged(gateAt("enforce"), held("echo", { text: "src/a.ts" }), short.ctx);
    const first = (short.seen.log[0]?.[1]["effects"] as Array<Record<string, unknown>>)[0];
    expect(first?.["spelled"]).toBe("src/a.ts");
    expect(first).not.toHaveProperty("cut");
  });
});
