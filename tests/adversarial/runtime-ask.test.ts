// Issue 17, run time: a strict question showed the first 197 characters of a command, so
// `; touch PAYLOAD` after a long build line was never seen, and it carried raw bidi characters.
// Through the built CLI at strict, with a client that can be asked: the question shows the whole
// command, escaped; one too long to show whole is refused unasked; nothing reaches the server.
import { describe, expect, it } from "vitest";
import type { Msg } from "./gate-client.js";
import { callsReceived, startRuntime } from "./runtime-client.js";

const HIDDEN = /[\p{Cc}\p{Cf}\p{Zl}\p{Zp}]/u;

/** effectgate's own answer for a call it did not send: a tool error in its words. */
const refusedByEffectgate = (m: Msg): boolean => {
  const r = m.result as { isError?: boolean; content?: Array<{ text?: string }> } | undefined;
  return r?.isError === true && (r.content?.[0]?.text ?? "").startsWith("effectgate ");
};

async function question(c: ReturnType<typeof startRuntime>["c"]): Promise<Msg> {
  for (let i = 0; i < 400; i++) {
    const q = c.messages.find((m) => (m as Msg).method === "elicitation/create");
    if (q) return q as Msg;
    await new Promise((r) => setTimeout(r, 25));
  }
  throw new Error(`no question; stderr: ${c.stderr}`);
}

describe("strict questions show the whole effect", () => {
  // Programs the catalogue does not know keep the exec action (confirm), so strict asks.
  it("a long line of a program effectgate does not know, then `; touch PAYLOAD`: the question holds all of it, escaped", async () => {
    const r = startRuntime("strict");
    await r.c.initialize({ elicitation: {} });
    const command = `${"frobnicate --workspace packages/core ".repeat(8)}; touch PAYLOAD \u202e#txt.exe`;
    r.c.call(1, "run_command", { command });
    const q = await question(r.c);
    const message = String((q.params as Msg).message);
    for (const line of message.split("\n")) expect(line).not.toMatch(HIDDEN);
    // The command is read program by program (docs/commands.md): each is shown whole, escaped.
    expect(message).toContain(command.slice(0, command.indexOf(" ;")));
    expect(message).toMatch(/- write \S*\/PAYLOAD \(spelled PAYLOAD\)/);
    expect(message).toContain("(spelled \\u202e#txt.exe)");
    // The user says no: the command never reaches the server.
    r.c.send({ jsonrpc: "2.0", id: q.id, result: { action: "decline" } });
    expect(refusedByEffectgate(await r.c.answer(1))).toBe(true);
    r.c.call(2, "canary", {});
    await r.c.answer(2);
    await r.c.close();
    expect(callsReceived(r.b, "run_command")).toEqual([]);
  }, 30_000);

  it("a command too long to show whole is refused without a question", async () => {
    const r = startRuntime("strict");
    await r.c.initialize({ elicitation: {} });
    // Two thousand different programs: one line each, more than a question may hold.
    const command = `${Array.from({ length: 2000 }, (_, i) => `frob${i} ok && `).join("")}touch PAYLOAD`;
    r.c.call(1, "run_command", { command });
    const answer = await r.c.answer(1);
    r.c.call(2, "canary", {});
    await r.c.answer(2);
    await r.c.close();
    expect(refusedByEffectgate(answer)).toBe(true);
    expect(JSON.stringify(answer)).toContain("too long to show whole in a question");
    expect(r.c.messages.some((m) => (m as Msg).method === "elicitation/create")).toBe(false);
    expect(callsReceived(r.b, "run_command")).toEqual([]);
  }, 30_000);
});
