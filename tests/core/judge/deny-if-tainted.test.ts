import { describe, expect, it } from "vitest";
import type { PlatformProfile } from "../../../src/core/paths/api.js";
import { exceptionAdvice } from "../../../src/core/status/advice.js";
import { call, judgeOf } from "../../helpers/judge.js";

// paths.deny_if_tainted (decision 0143): a write asks in a clean session and is refused once the
// session is tainted. It sits between paths.deny and paths.confirm; reads meet deny_read only.

const TEXT = `version: 1
paths:
  deny: ["**/.env.production"]
  deny_if_tainted: ["**/.env", "**/.env.*", "~/cfg/**"]
  confirm: ["**/.env.local"]
  confirm_if_tainted: ["**/.env.test"]
  deny_read: ["**/.env"]
`;

const WIN: PlatformProfile = {
  platform: "win32",
  home: "C:\\Users\\user",
  env: { USERPROFILE: "C:\\Users\\user" },
  cwd: "C:\\Users\\user\\project",
};

type Row = [string, string, Record<string, unknown>, boolean, "allow" | "confirm" | "deny", string | undefined];

const ROWS: Row[] = [
  ["a clean write asks", "write_file", { path: ".env" }, false, "confirm", "paths.deny_if_tainted **/.env"],
  ["a tainted write is refused", "write_file", { path: ".env" }, true, "deny", "paths.deny_if_tainted **/.env"],
  ["paths.deny comes first", "write_file", { path: ".env.production" }, false, "deny", "paths.deny **/.env.production"],
  ["it is cited before paths.confirm", "write_file", { path: ".env.local" }, false, "confirm", "paths.deny_if_tainted **/.env.*"],
  ["tainted, it outranks paths.confirm", "write_file", { path: ".env.local" }, true, "deny", "paths.deny_if_tainted **/.env.*"],
  ["tainted, it outranks confirm_if_tainted", "write_file", { path: ".env.test" }, true, "deny", "paths.deny_if_tainted **/.env.*"],
  ["a read meets deny_read", "read_text_file", { path: ".env" }, false, "deny", "paths.deny_read **/.env"],
  ["a read meets nothing else, tainted or not", "read_text_file", { path: "~/cfg/app.toml" }, true, "allow", undefined],
  ["an edit writes", "edit_file", { path: "../project/.env", edits: [] }, true, "deny", "paths.deny_if_tainted **/.env"],
  ["a folder moved onto its anchor asks", "move_file", { source: "x", destination: "~/cfg" }, false, "confirm", "paths.deny_if_tainted ~/cfg/**"],
  ["the same move tainted is refused", "move_file", { source: "x", destination: "~/cfg" }, true, "deny", "paths.deny_if_tainted ~/cfg/**"],
  ["a folder moved onto its parent, tainted", "move_file", { source: "x", destination: "~" }, true, "deny", "paths.deny_if_tainted ~/cfg/**"],
];

const WIN_ROWS: Row[] = [
  ["a trailing dot", "write_file", { path: "C:\\Users\\user\\project\\.env." }, true, "deny", "paths.deny_if_tainted **/.env"],
  ["trailing dots and spaces", "write_file", { path: ".env . ." }, true, "deny", "paths.deny_if_tainted **/.env"],
  ["a data stream", "write_file", { path: "C:\\Users\\user\\project\\.env:secret" }, true, "deny", "paths.deny_if_tainted **/.env"],
  ["the default stream, spelled out", "write_file", { path: ".env::$DATA" }, true, "deny", "paths.deny_if_tainted **/.env"],
  ["case folded", "write_file", { path: "C:\\USERS\\user\\Project\\.ENV.Local" }, true, "deny", "paths.deny_if_tainted **/.env.*"],
  ["a stream, clean", "write_file", { path: ".env:secret" }, false, "confirm", "paths.deny_if_tainted **/.env"],
];

describe("paths.deny_if_tainted", () => {
  it.each(ROWS)("%s", (_name, tool, args, tainted, verdict, rule) => {
    const d = judgeOf({ text: TEXT, tainted }).judge("tools/call", call(tool, args));
    expect({ verdict: d.verdict, rule: d.rule }).toEqual({ verdict, rule });
  });

  it.each(WIN_ROWS)("win32: %s", (_name, tool, args, tainted, verdict, rule) => {
    const d = judgeOf({ text: TEXT, tainted, profile: WIN }).judge("tools/call", call(tool, args));
    expect({ verdict: d.verdict, rule: d.rule }).toEqual({ verdict, rule });
  });

  it("says in the reason what taint changes", () => {
    const clean = judgeOf({ text: TEXT }).judge("tools/call", call("write_file", { path: ".env" }));
    expect(clean.reason).toBe(
      "write_file would write /home/user/project/.env, which matches paths.deny_if_tainted **/.env; it is refused once the session takes in untrusted content",
    );
    const tainted = judgeOf({ text: TEXT, tainted: true }).judge("tools/call", call("write_file", { path: ".env" }));
    expect(tainted.reason).toBe(
      "write_file would write /home/user/project/.env, which matches paths.deny_if_tainted **/.env, and this session has taken in untrusted content",
    );
    const below = judgeOf({ text: TEXT, tainted: true }).judge("tools/call", call("move_file", { source: "x", destination: "~" }));
    expect(below.reason).toMatch(/paths\.deny_if_tainted ~\/cfg\/\*\*, and this session has taken in untrusted content$/);
  });

  it("advises removing the pattern, or moving it to paths.confirm", () => {
    expect(exceptionAdvice("paths.deny_if_tainted **/.env", "team.yaml", "unused")).toBe(
      'remove "**/.env" from paths.deny_if_tainted in team.yaml (or move it to paths.confirm, to be asked even in a tainted session)',
    );
  });
});
