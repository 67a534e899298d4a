// lexicalPathOnce (decision 0146) answers as lexicalPath does, call after call, and never with
// an answer kept for a profile whose fields have changed since.
import { describe, expect, it } from "vitest";
import type { PlatformProfile } from "../../../src/core/paths/api.js";
import { lexicalPath, lexicalPathOnce, STEP } from "../../../src/core/paths/canonical.js";
import { LINUX, WIN32 } from "../../helpers/profiles.js";

const TEXTS = [
  "src/index.ts",
  "~/.ssh/id_rsa",
  "$HOME/x",
  " ./a/../b ",
  "C:x",
  "file:///etc/passwd",
  "a\u0000b",
];

describe("lexicalPathOnce", () => {
  it("gives lexicalPath's answer, asked once or many times, for every step left out", () => {
    for (const profile of [LINUX, WIN32])
      for (const text of TEXTS)
        for (const leaveOut of [0, STEP.home, STEP.trim | STEP.vars])
          for (let round = 0; round < 2; round++)
            expect(lexicalPathOnce(text, profile, leaveOut)).toEqual(lexicalPath(text, profile, leaveOut));
  });

  it("does not mistake a text holding NUL for another text with steps left out", () => {
    const literal = lexicalPathOnce("~/x", LINUX, STEP.home);
    expect(lexicalPathOnce(`${STEP.home}\u0000~/x`, LINUX)).toEqual(
      lexicalPath(`${STEP.home}\u0000~/x`, LINUX),
    );
    expect(literal).toEqual(lexicalPath("~/x", LINUX, STEP.home));
  });

  it("answers anew when the same profile object now has another cwd or home", () => {
    const profile: PlatformProfile = { ...LINUX, cwd: "/srv/one" };
    expect(lexicalPathOnce("a.ts", profile)).toMatchObject({ ok: true, lexical: "/srv/one/a.ts" });
    profile.cwd = "/srv/two";
    expect(lexicalPathOnce("a.ts", profile)).toMatchObject({ ok: true, lexical: "/srv/two/a.ts" });
    profile.home = "/home/other";
    expect(lexicalPathOnce("~/a", profile)).toMatchObject({ ok: true, lexical: "/home/other/a" });
  });
});
