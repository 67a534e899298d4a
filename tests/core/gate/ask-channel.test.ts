import { describe, expect, it } from "vitest";
import {
  ASK_CHANNELS,
  askChannelOf,
  channelFor,
  isAsked,
  offeredAsk,
  offersDialog,
  type CallChannel,
} from "../../../src/core/gate/ask-channel.js";
import { HeaderRecord } from "../../../src/log/records.js";

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

describe("a dialog the relay offered", () => {
  it.each<[string, Record<string, unknown>, string]>([
    ["a 2025 client without elicitation", { era: "legacy", clientCapabilities: {} }, "dialog"],
    ["a 2026-07-28 client without form", { era: "modern", clientCapabilities: {} }, "dialog"],
    [
      "a 2025 client with elicitation: the chat first",
      { era: "legacy", clientCapabilities: { elicitation: {} } },
      "elicitation",
    ],
    [
      "a 2026-07-28 client with form: the chat first",
      { era: "modern", clientCapabilities: { elicitation: {} } },
      "input_required",
    ],
  ])("%s", (_, handshake, channel) => {
    expect(askChannelOf(handshake, true)).toBe(channel);
  });

  const base = { modern: false, capabilities: undefined, legacyCanElicit: false, alone: true, fits: true };
  it.each<[string, Partial<Parameters<typeof channelFor>[0]>, CallChannel]>([
    ["a 2025 call, no elicitation, dialog on offer", { dialog: true }, "dialog"],
    ["a 2025 call, no elicitation, no dialog", { dialog: false }, "out of band"],
    [
      "a 2025 call with elicitation: the chat, not the dialog",
      { dialog: true, legacyCanElicit: true },
      "elicitation",
    ],
    [
      "a 2026-07-28 call in a batch",
      { dialog: true, modern: true, alone: false, capabilities: { elicitation: {} } },
      "dialog",
    ],
    [
      "a 2026-07-28 call alone with form",
      { dialog: true, modern: true, capabilities: { elicitation: {} } },
      "input_required",
    ],
    ["a question too long to show, dialog or not", { dialog: true, fits: false }, "none"],
  ])("%s", (_, over, channel) => {
    expect(channelFor({ ...base, dialog: false, ...over })).toBe(channel);
  });

  it("counts the chat and the dialog as asked, out of band and none as refused", () => {
    expect(
      (["elicitation", "input_required", "dialog", "out of band", "none"] as const).map(isAsked),
    ).toEqual([true, true, true, false, false]);
  });
});

describe("the header's ask", () => {
  it("lists the dialog only when a tool was found, and says why not otherwise", () => {
    expect(offeredAsk({ tool: "zenity" })).toEqual({
      channels: ["elicitation", "input_required", "dialog", "out of band"],
      dialog: "zenity",
    });
    expect(offeredAsk({ none: "no display" })).toEqual({
      channels: ["elicitation", "input_required", "out of band"],
      noDialog: "no display",
    });
    expect(offeredAsk(undefined)).toEqual({ channels: ["elicitation", "input_required", "out of band"] });
  });

  it("reads a dialog only from a header that lists one; a header of an earlier version has none", () => {
    expect(offersDialog({ ask: offeredAsk({ tool: "kdialog" }) })).toBe(true);
    expect(offersDialog({ ask: offeredAsk({ none: "x" }) })).toBe(false);
    expect(offersDialog({})).toBe(false);
    expect(offersDialog(undefined)).toBe(false);
  });

  it("names the same channels as the log record's schema", () => {
    const channels = HeaderRecord.shape.ask.unwrap().shape.channels.element.options;
    expect(channels).toEqual([...ASK_CHANNELS]);
  });
});
