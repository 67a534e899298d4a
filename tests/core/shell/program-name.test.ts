import { describe, expect, it } from "vitest";
import { programName } from "../../../src/core/shell/program-name.js";

// The name a program is known by, whatever folder and case it is spelled with.

describe("programName", () => {
  it("drops every folder, with either separator, and the case", () => {
    expect(programName("/usr/bin/MV")).toBe("mv");
    expect(programName("C:\\Windows\\System32\\Robocopy")).toBe("robocopy");
    expect(programName("./bin/x")).toBe("x");
    expect(programName("rm")).toBe("rm");
  });

  it("drops `.exe` only at the end", () => {
    expect(programName("C:\\Tools\\MV.EXE")).toBe("mv");
    expect(programName("a.exe.bat")).toBe("a.exe.bat");
    expect(programName("a.exe")).toBe("a");
  });
});
