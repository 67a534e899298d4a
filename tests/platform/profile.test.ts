import { afterEach, describe, expect, it } from "vitest";
import { currentPlatform } from "../../src/platform/profile.js";
import { longPathName, mayHaveShortNames } from "../../src/platform/windows-longpath.js";

const realPlatform = Object.getOwnPropertyDescriptor(process, "platform") as PropertyDescriptor;
afterEach(() => Object.defineProperty(process, "platform", realPlatform));

function pretend(platform: string) {
  Object.defineProperty(process, "platform", { value: platform, configurable: true });
}

describe("currentPlatform", () => {
  it.each([
    ["linux", "linux"],
    ["darwin", "darwin"],
    ["win32", "win32"],
    ["freebsd", "linux"],
    ["aix", "linux"],
    ["android", "linux"],
  ])("%s follows %s path rules", (os, rules) => {
    pretend(os);
    expect(currentPlatform()).toBe(rules);
  });
});

describe("windows-longpath", () => {
  it("spots 8.3 aliases only", () => {
    expect(mayHaveShortNames("C:\\PROGRA~1\\x")).toBe(true);
    expect(mayHaveShortNames("C:\\Program Files\\x~y")).toBe(false);
  });

  it("answers only on Windows (undefined elsewhere, never a guess)", () => {
    const here = process.platform === "win32" ? (process.env.SystemRoot ?? "C:\\Windows") : "/tmp";
    const got = longPathName(here);
    if (process.platform === "win32") expect(got?.toLowerCase()).toBe(here.toLowerCase());
    else expect(got).toBeUndefined();
  });
});
