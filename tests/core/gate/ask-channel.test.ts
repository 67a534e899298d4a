import { describe, expect, it } from "vitest";
import { askChannelOf } from "../../../src/core/gate/ask-channel.js";

describe("the channel a handshake implies", () => {
  it.each<[string, Record<string, unknown>, string]>([
    [
      "a 2025 client with elicitation",
      { era: "legacy", clientCapabilities: { elicitation: {} } },
      "elicitation",
    ],
    ["a 2025 client without", { era: "legacy", clientCapabilities: { roots: {} } }, "out of band"],
    ["a 2025 client that declared nothing", { era: "legacy", clientCapabilities: null }, "out of band"],
    [
      "a 2026-07-28 client with form elicitation",
      { era: "modern", clientCapabilities: { elicitation: {} } },
      "input_required",
    ],
    [
      "a 2026-07-28 client with form and url",
      { era: "modern", clientCapabilities: { elicitation: { form: {}, url: {} } } },
      "input_required",
    ],
    [
      "a 2026-07-28 client with url only",
      { era: "modern", clientCapabilities: { elicitation: { url: {} } } },
      "out of band",
    ],
    ["a 2026-07-28 client without", { era: "modern", clientCapabilities: {} }, "out of band"],
  ])("%s", (_, handshake, channel) => {
    expect(askChannelOf(handshake)).toBe(channel);
  });
});
