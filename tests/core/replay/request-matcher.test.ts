// The one request/answer pairing of log readers (src/core/replay/request-matcher.ts): each row
// is a sequence of steps and what the matcher says at the end.
import { describe, expect, it } from "vitest";
import { RequestMatcher } from "../../../src/core/replay/request-matcher.js";

type M = RequestMatcher<string, string>;
const fresh = (marksOwn = false): M => {
  const m = new RequestMatcher<string, string>();
  m.marksOwn = marksOwn;
  return m;
};

describe("pairing requests with answers", () => {
  const rows: { name: string; steps: (m: M) => unknown; want: unknown }[] = [
    { name: "an answer takes its request", steps: (m) => (m.request("1", "a"), m.answer("1")), want: "a" },
    {
      name: "a request is answered once",
      steps: (m) => (m.request("1", "a"), m.answer("1"), m.answer("1")),
      want: undefined,
    },
    { name: "an answer to no request takes nothing", steps: (m) => m.answer("9"), want: undefined },
    {
      name: "a later request under the same key replaces the first",
      steps: (m) => (m.request("1", "a"), m.request("1", "b"), m.answer("1")),
      want: "b",
    },
    {
      name: "looking does not take",
      steps: (m) => (m.request("1", "a"), m.waitingFor("1"), m.answer("1")),
      want: "a",
    },
    {
      name: "a dropped answer's request waits again",
      steps: (m) => (m.request("1", "a"), m.answer("1"), [m.waitAgain("1", "a"), m.answer("1")]),
      want: [true, "a"],
    },
    {
      name: "waiting again does not displace a newer request",
      steps: (m) => (m.request("1", "new"), [m.waitAgain("1", "old"), m.answer("1")]),
      want: [false, "new"],
    },
    {
      name: "requests still waiting, oldest first",
      steps: (m) => (
        m.request("1", "a"),
        m.request("2", "b"),
        m.request("3", "c"),
        m.answer("2"),
        [...m.requests()]
      ),
      want: ["a", "c"],
    },
  ];
  for (const row of rows) it(row.name, () => expect(row.steps(fresh())).toEqual(row.want));
});

describe("answers before their call (pass-through)", () => {
  const rows: { name: string; steps: (m: M) => unknown; want: unknown }[] = [
    {
      name: "outside pass-through an unmatched answer answers nothing at once",
      steps: (m) => [m.noRequest("1", "x", false), m.unclaimed()],
      want: ["x", []],
    },
    {
      name: "in pass-through it is parked, and nothing is lost yet",
      steps: (m) => [m.noRequest("1", "x", true), m.unclaimed()],
      want: [undefined, ["x"]],
    },
    {
      name: "a second answer under the same key displaces the first, which answers nothing",
      steps: (m) => [m.noRequest("1", "x", true), m.noRequest("1", "y", true), m.unclaimed()],
      want: [undefined, "x", ["y"]],
    },
    {
      name: "the next client frame claims it with its request",
      steps: (m) => (
        m.noRequest("1", "x", true),
        m.request("1", "a"),
        [m.claim(["1"]), m.answer("1"), m.unclaimed()]
      ),
      want: [[{ request: "a", answer: "x" }], undefined, []],
    },
    {
      name: "a frame without its id claims nothing; the answer stays parked until drained",
      steps: (m) => (
        m.noRequest("1", "x", true),
        m.request("2", "a"),
        [m.claim(["2"]), m.answer("2"), m.unclaimed()]
      ),
      want: [[], "a", ["x"]],
    },
    {
      name: "claims follow the frame's order",
      steps: (m) => (
        m.noRequest("1", "x", true),
        m.noRequest("2", "y", true),
        m.request("1", "a"),
        m.request("2", "b"),
        m.claim(["2", "1"])
      ),
      want: [
        { request: "b", answer: "y" },
        { request: "a", answer: "x" },
      ],
    },
    {
      name: "a key listed twice claims once",
      steps: (m) => (m.noRequest("1", "x", true), m.request("1", "a"), m.claim(["1", "1"])),
      want: [{ request: "a", answer: "x" }],
    },
    {
      name: "a parked answer with no request under its key is not claimed by naming the key",
      steps: (m) => (m.noRequest("1", "x", true), [m.claim(["1"]), m.unclaimed()]),
      want: [[], ["x"]],
    },
  ];
  for (const row of rows) it(row.name, () => expect(row.steps(fresh())).toEqual(row.want));
});

describe("which answers effectgate wrote", () => {
  const rows: { name: string; marks: boolean; steps: (m: M) => unknown; want: unknown }[] = [
    { name: "marked: by says so", marks: true, steps: (m) => m.ownAnswer("1", "effectgate"), want: true },
    {
      name: "marked: no by, even right after a refusal, is the server's",
      marks: true,
      steps: (m) => (m.refused("1"), m.ownAnswer("1", undefined)),
      want: false,
    },
    {
      name: "marked: by with no refusal record is effectgate's (an error answer)",
      marks: true,
      steps: (m) => m.ownAnswer("1", "effectgate"),
      want: true,
    },
    {
      name: "legacy: the first s2c answer after a refusal is effectgate's",
      marks: false,
      steps: (m) => (m.refused("1"), m.ownAnswer("1", undefined)),
      want: true,
    },
    {
      name: "legacy: only the first",
      marks: false,
      steps: (m) => (m.refused("1"), [m.ownAnswer("1", undefined), m.ownAnswer("1", undefined)]),
      want: [true, false],
    },
    {
      name: "legacy: after another s2c frame it is the server's (effectgate's record was lost)",
      marks: false,
      steps: (m) => (m.refused("1"), m.serverFrameRead(), m.ownAnswer("1", undefined)),
      want: false,
    },
    {
      name: "legacy: by is not read where the header does not promise it",
      marks: false,
      steps: (m) => m.ownAnswer("1", "effectgate"),
      want: false,
    },
    {
      name: "legacy: a refusal of another call says nothing of this one",
      marks: false,
      steps: (m) => (m.refused("2"), m.ownAnswer("1", undefined)),
      want: false,
    },
  ];
  for (const row of rows) it(row.name, () => expect(row.steps(fresh(row.marks))).toEqual(row.want));
});
