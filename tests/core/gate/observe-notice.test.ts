// The observe-level notice, in process: the relay and install tests that print it start processes,
// which the mutation runs cannot, so its words are checked here too.
import { describe, expect, it } from "vitest";
import {
  INSTALL_HOW_TO_ENFORCE,
  observeNotice,
  RELAY_HOW_TO_ENFORCE,
} from "../../../src/core/gate/observe-notice.js";

describe("observeNotice", () => {
  it("is two single lines: what observe does, then how to see what enforce would refuse and switch", () => {
    const lines = observeNotice("do the thing");
    expect(lines).toHaveLength(2);
    for (const l of lines) expect(l).not.toMatch(/\n/);
    expect(lines[0]).toMatch(/^level observe: /);
    expect(lines[0]).toContain("none is refused");
    expect(lines[0]).toContain("what enforce would refuse");
    expect(lines[1]).toMatch(/^to enforce: /);
    // The one command that lists what enforce would have refused, then the caller's change.
    expect(lines[1]).toContain("with effectgate status, then ");
    expect(lines[1].endsWith(", then do the thing")).toBe(true);
  });

  it("tells the relay's user and install's user the same command with the enforce level", () => {
    for (const how of [RELAY_HOW_TO_ENFORCE, INSTALL_HOW_TO_ENFORCE]) {
      expect(how.startsWith("run effectgate install --level enforce")).toBe(true);
      expect(observeNotice(how)[1].endsWith(how)).toBe(true);
    }
    // In the relay the level can also be given where the client starts effectgate.
    expect(RELAY_HOW_TO_ENFORCE).toContain("--level enforce before -- in the client's config");
  });
});
