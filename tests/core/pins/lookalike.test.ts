import { describe, expect, it } from "vitest";
import {
  LookAlikes,
  lookAlikeGroups,
  lookAlikeSentence,
  withCodePoints,
} from "../../../src/core/pins/lookalike.js";

const tool = (name: string) => ({ name, inputSchema: { type: "object" } });

describe("look-alike tool names", () => {
  it("groups names that differ only by confusable letters, case, width or invisible characters", () => {
    const decoys = [
      "read_f\u0456le", // Cyrillic і
      "READ_FILE",
      "ｒｅａｄ＿ｆｉｌｅ", // full width
      "read_\u200bfile", // zero-width space
      "read_fiIe", // capital I for l
      "rеad_file", // Cyrillic е
      "read_f\u0131le", // dotless ı
    ];
    for (const d of decoys) expect(lookAlikeGroups(["read_file", d]), d).toEqual([["read_file", d].sort()]);
  });

  it("leaves different names apart", () => {
    expect(
      lookAlikeGroups(["read_file", "write_file", "read_files", "get_issue", "get_issues", "read-file"]),
    ).toEqual([]);
  });

  it("shows every character outside printable ASCII as its code point", () => {
    expect(withCodePoints("read_f\u0456le")).toBe("read_f[U+0456]le");
    expect(withCodePoints("a\u200bb c")).toBe("a[U+200B]b[U+0020]c");
    expect(lookAlikeSentence(["read_file", "read_f\u0456le"])).toBe(
      'tools "read_file", "read_f[U+0456]le" differ only by case or by characters that look alike',
    );
  });

  it("refuses a call to either name unless the lock pins that exact name", () => {
    const open = new LookAlikes();
    expect(open.observeList([tool("read_file"), tool("fetch")])).toEqual([]);
    expect(open.checkCall("read_file")).toEqual({ ok: true });
    expect(open.observeList([tool("read_f\u0456le")])).toEqual([["read_file", "read_f\u0456le"]]);
    const decoy = open.checkCall("read_f\u0456le");
    expect(decoy.ok).toBe(false);
    if (!decoy.ok) expect(decoy.reason).toContain('tool "read_f[U+0456]le" looks like "read_file"');
    expect(open.checkCall("read_file").ok).toBe(false);
    expect(open.checkCall("fetch")).toEqual({ ok: true });
    // A name never listed that looks like a listed one: a case-folding server would run it.
    expect(new LookAlikes().checkCall("x")).toEqual({ ok: true });
    const one = new LookAlikes();
    one.observeList([tool("read_file")]);
    expect(one.checkCall("Read_File").ok).toBe(false);

    const pinned = new LookAlikes(new Set(["read_file"]));
    pinned.observeList([tool("read_file"), tool("read_f\u0456le")]);
    expect(pinned.checkCall("read_file")).toEqual({ ok: true });
    expect(pinned.checkCall("read_f\u0456le").ok).toBe(false);
  });
});
