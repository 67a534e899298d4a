// Issue 17: a server's stderr line can neither erase nor pass for effectgate's own notices.
import { describe, expect, it } from "vitest";
import { SERVER_STDERR_MARK, serverStderrLine } from "../../../src/core/text/server-stderr.js";

describe("serverStderrLine", () => {
  it("marks every line, so none starts as effectgate's do", () => {
    expect(SERVER_STDERR_MARK).toBe("[server] ");
    expect(serverStderrLine("")).toBe("[server] ");
    expect(serverStderrLine("listening on stdio")).toBe("[server] listening on stdio");
    expect(serverStderrLine("effectgate: refused nothing")).toBe("[server] effectgate: refused nothing");
  });

  it("shows carriage returns, erases, bidi and separators as escapes, and keeps tabs", () => {
    expect(serverStderrLine("ok\reffectgate: fine")).toBe("[server] ok\\x0deffectgate: fine");
    expect(serverStderrLine("\u001b[1A\u001b[2Kclean")).toBe("[server] \\x1b[1A\\x1b[2Kclean");
    expect(serverStderrLine("\u009b2J\u202ex\u2028y\u0085")).toBe("[server] \\x9b2J\\u202ex\\u2028y\\x85");
    expect(serverStderrLine("\tat main (a.js:1)")).toBe("[server] \tat main (a.js:1)");
    // A backslash is the server's own character: left as it is, like a Windows path.
    expect(serverStderrLine("C:\\Users\\me")).toBe("[server] C:\\Users\\me");
  });
});
