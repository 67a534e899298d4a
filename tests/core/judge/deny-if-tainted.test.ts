// paths.deny_if_tainted in the judge: a write asks in a clean session and is refused in a
// tainted one; a Windows spelling that opens the file under another name is refused in both.
import { describe, expect, it } from "vitest";
import { judgeOf, call } from "../../helpers/judge.js";
import { WIN32 } from "../../helpers/policy.js";

const POLICY = `version: 1
paths:
  deny: ["**/.env.vault"]
  deny_if_tainted: ["**/.env", "**/.env.*", "~/work/env/**"]
  confirm: ["**/.env.example"]
  confirm_if_tainted: ["**/Makefile"]
`;
const write = (path: string) => ["tools/call", call("write_file", { path, content: "A=1" })] as const;
const clean = judgeOf({ text: POLICY });
const tainted = judgeOf({ text: POLICY, tainted: true });

describe("paths.deny_if_tainted", () => {
  it("asks in an untainted session, and says what taint would change", () => {
    const d = clean.judge(...write(".env.local"));
    expect(d).toMatchObject({ verdict: "confirm", rule: "paths.deny_if_tainted **/.env.*" });
    expect(d.reason).toBe(
      "write_file would write /home/user/project/.env.local, which matches paths.deny_if_tainted **/.env.*, so it is refused once this session takes in untrusted content",
    );
  });

  it("refuses in a tainted session", () => {
    const d = tainted.judge(...write(".env.local"));
    expect(d).toMatchObject({ verdict: "deny", rule: "paths.deny_if_tainted **/.env.*", tainted: true });
    expect(d.reason).toBe(
      "write_file would write /home/user/project/.env.local, which matches paths.deny_if_tainted **/.env.*, and this session has taken in untrusted content",
    );
  });

  it("leaves reads to deny_read", () => {
    const read = ["tools/call", call("read_text_file", { path: ".env" })] as const;
    expect(tainted.judge(...read).verdict).toBe("allow");
  });

  it("comes after deny and before confirm, whatever the taint", () => {
    // deny names the rule even where deny_if_tainted matches too.
    expect(clean.judge(...write(".env.vault"))).toMatchObject({
      verdict: "deny",
      rule: "paths.deny **/.env.vault",
    });
    // Untainted, deny_if_tainted and confirm give the same verdict; deny_if_tainted is named.
    expect(clean.judge(...write(".env.example"))).toMatchObject({
      verdict: "confirm",
      rule: "paths.deny_if_tainted **/.env.*",
    });
    expect(tainted.judge(...write(".env.example"))).toMatchObject({
      verdict: "deny",
      rule: "paths.deny_if_tainted **/.env.*",
    });
    expect(tainted.judge(...write("Makefile"))).toMatchObject({
      verdict: "confirm",
      rule: "paths.confirm_if_tainted **/Makefile",
    });
  });

  it("refuses below a folder moved as a whole only once tainted", () => {
    const move = ["tools/call", call("move_file", { source: "a", destination: "~/work" })] as const;
    expect(clean.judge(...move)).toMatchObject({
      verdict: "confirm",
      rule: "paths.deny_if_tainted ~/work/env/**",
    });
    const d = tainted.judge(...move);
    expect(d).toMatchObject({ verdict: "deny", rule: "paths.deny_if_tainted ~/work/env/**" });
    expect(d.reason).toBe(
      "move_file would move, copy or unpack onto /home/user/work as a whole, a folder that holds paths matched by paths.deny_if_tainted ~/work/env/**, and this session has taken in untrusted content",
    );
  });
});

describe("a Windows spelling that opens the file under another name", () => {
  const win = judgeOf({ text: POLICY, profile: WIN32 });
  const at = (name: string) => `C:\\Users\\ada\\proj\\${name}`;

  it.each([".env.", ".env:secret", ".env::$DATA", ".env.local .", ".env.local "])(
    "%j is refused untainted",
    (name) => {
      const d = win.judge(...write(at(name)));
      expect(d.verdict).toBe("deny");
      expect(d.rule).toMatch(/^paths\.deny_if_tainted \*\*\/\.env/);
      expect(d.reason).toContain("spelled so that Windows opens it under another name");
    },
  );

  it("a folder above spelled so is refused too", () => {
    expect(win.judge(...write("C:\\Users\\ada\\proj.\\.env")).verdict).toBe("deny");
  });

  it("a folder so spelled, moved as a whole, is refused for what lies below it", () => {
    const move = (destination: string) =>
      win.judge("tools/call", call("move_file", { source: "a", destination }));
    expect(move("C:\\Users\\ada\\work")).toMatchObject({
      verdict: "confirm",
      rule: "paths.deny_if_tainted ~/work/env/**",
    });
    expect(move("C:\\Users\\ada\\work.")).toMatchObject({
      verdict: "deny",
      rule: "paths.deny_if_tainted ~/work/env/**",
    });
  });

  it("the plain spelling only asks", () => {
    expect(win.judge(...write(at(".env.local")))).toMatchObject({
      verdict: "confirm",
      rule: "paths.deny_if_tainted **/.env.*",
    });
  });

  it("does not change confirm or confirm_if_tainted", () => {
    expect(win.judge(...write(at(".env.example.")))).toMatchObject({ verdict: "deny" });
    expect(win.judge(...write(at("Makefile.")))).toMatchObject({ verdict: "allow" });
    expect(win.judge(...write(at("notes.txt:x")))).toMatchObject({ verdict: "allow" });
  });
});
