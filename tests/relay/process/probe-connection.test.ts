// The probe reads a server's stdout with the relay's line splitter: answers cut into small
// writes, CRLF line ends and a multi-byte character split across writes still read whole.
import { describe, expect, it } from "vitest";
import { probeServer } from "../../../src/relay/process/probe.js";
import { fixture } from "../../helpers/pins.js";

describe("the probe's connection", () => {
  it("reads answers written in pieces with CRLF line ends, past stdout chatter", async () => {
    const r = await probeServer([process.execPath, fixture("chunked.mjs")], { timeoutMs: 20_000 });
    expect(r.serverInfo).toEqual({ name: "chunked", version: "1.0.0" });
    expect(r.tools).toEqual([
      { name: "read_file", description: "Lit un fichier — entier.", inputSchema: { type: "object" } },
    ]);
  });
});
