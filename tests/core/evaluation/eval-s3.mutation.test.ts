// Round 3 of attack.ts: which server messages start a new tools listing, which tools/list
// requests begin one, and which client messages are requests awaiting an answer.
import { describe, expect, it } from "vitest";
import { runScenario } from "../../../src/core/evaluation/attack.js";
import { makeJudge, scenario, type Msg } from "../../helpers/scenario.js";

const t = (description: string) => ({ name: "a", description, inputSchema: { type: "object" } });
const approved = [t("v1")];
const list = (id: number, params?: Msg) => ({
  c2s: { id, method: "tools/list", ...(params ? { params } : {}) },
});
const page = (id: number, tools: unknown[], nextCursor?: string) => ({
  s2c: { id, result: { tools, ...(nextCursor ? { nextCursor } : {}) } },
});
const callA = { c2s: { id: 9, method: "tools/call", params: { name: "a", arguments: {} } }, harmful: true };
const run = (messages: Msg[], over: Msg = { approved }) =>
  runScenario(scenario(messages, over), "enforce", makeJudge);

describe("listings under a lock", () => {
  it("a tools/list whose params hold no cursor starts a new listing", () => {
    // Two complete listings: the second shows a changed tool, not the same tool listed twice.
    const r = run([list(1, {}), page(1, [t("v1")]), list(2, { _meta: {} }), page(2, [t("v2")]), callA]);
    expect(r.reason).toMatch(/^tool "a" changed since it was approved/);
  });

  it("only a list_changed notification starts over, not a server request of that name", () => {
    const request = { s2c: { id: 40, method: "notifications/tools/list_changed" } };
    const r = run([
      list(1),
      page(1, [t("v1")], "c"),
      request,
      list(2, { cursor: "c" }),
      page(2, [t("v2")]),
      callA,
    ]);
    expect(r.reason).toMatch(/^tool "a" cannot be checked against the lock/);
  });

  it("a list_changed notification without a lock changes nothing", () => {
    const note = { s2c: { method: "notifications/tools/list_changed" } };
    const r = run([note, callA], {});
    expect(r).toMatchObject({ outcome: "forward", verdict: "allow" });
  });

  it("a client's answer to a server request does not replace its own pending tools/list", () => {
    // Ids are per direction: the client may answer the server's request 1 while its own
    // request 1 (tools/list) is still waiting for the listing.
    const answer = { c2s: { id: 1, result: {} } };
    const r = run([list(1), answer, page(1, [t("v2")]), callA]);
    expect(r).toMatchObject({ rule: "pin", stopped: true });
    expect(r.reason).toMatch(/^tool "a" changed since it was approved/);
  });
});

describe("batches", () => {
  it("a batch holding a tools/call without an id is refused, as the relay refuses it", () => {
    const raw = JSON.stringify([
      { jsonrpc: "2.0", method: "tools/call", params: { name: "a", arguments: {} } },
    ]);
    const r = runScenario(scenario([{ c2s_raw: raw, harmful: true }]), "enforce", makeJudge);
    expect(r.outcome).toBe("refuse");
    expect(r.reason).toContain("tools/call without an id");
  });
});
