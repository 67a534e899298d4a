import { readdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { escapeForTerminal as diffEscape } from "../../src/core/pins/escape.js";
import { escapeForTerminal as transcriptEscape, terminalSafeJson } from "../../src/core/replay/escape.js";
import { call, cli, fixture, handshake, sandbox, session } from "./helpers.js";

// Invisible characters from a server must be visible wherever effectgate prints them: approve
// --diff, the relay's pin notices on stderr, and replay. The oracle below is written out here on
// purpose, range by range, rather than taken from src/core/terminal-text.ts.

function hiddenCodePoint(cp: number): boolean {
  const ch = String.fromCodePoint(cp);
  return (
    /[\p{Cc}\p{Cf}\p{Co}\p{Cn}\p{Cs}\p{Zl}\p{Zp}\p{Default_Ignorable_Code_Point}]/u.test(ch) ||
    (cp >= 0xe0000 && cp <= 0xe007f) || // tags
    (cp >= 0xfe00 && cp <= 0xfe0f) || // variation selectors
    (cp >= 0xe0100 && cp <= 0xe01ef) ||
    [0x00ad, 0x034f, 0x115f, 0x1160, 0x17b4, 0x17b5, 0x180e, 0x3164, 0xffa0, 0x200b, 0x202e].includes(cp)
  );
}

/** The hidden code points in `text`, as hex (lone surrogates included). */
function hiddenIn(text: string): string[] {
  const out: string[] = [];
  for (let i = 0; i < text.length; i++) {
    const cp = text.codePointAt(i) as number;
    if (cp > 0xffff) i++;
    if (hiddenCodePoint(cp)) out.push(cp.toString(16));
  }
  return out;
}

/** Same, for a program's output: its own line ends are fine. */
const hiddenInLines = (text: string): string[] => hiddenIn(text.replaceAll("\n", ""));

const tagged = (s: string): string =>
  [...s].map((c) => String.fromCodePoint(0xe0000 + c.charCodeAt(0))).join("");

describe("the escaper shared by approve, the relay and replay", () => {
  it("escapes the characters that hide text, readably", () => {
    const named =
      "\u00ad\u180e\u3164\u115f\u1160\uffa0\u034f\u17b4\u17b5\ufe0f\u{e0100}\ue000\u{f0000}\u0378\u206a";
    expect(transcriptEscape(`Echo text back${tagged("hi")}`)).toBe("Echo text back\\u{e0068}\\u{e0069}");
    expect(transcriptEscape(named)).toBe(
      "\\xad\\u180e\\u3164\\u115f\\u1160\\uffa0\\u034f\\u17b4\\u17b5\\ufe0f\\u{e0100}\\ue000\\u{f0000}\\u0378\\u206a",
    );
    expect(diffEscape(`a\\b${tagged("x")}\n`)).toBe("a\\\\b\\u{e0078}\\n");
    // Visible text, emoji and CJK included, is left as it is.
    expect(transcriptEscape("été 中文 😀 C:\\Users")).toBe("été 中文 😀 C:\\Users");
  });

  it("never outputs a hidden code point, for any input (every code point, then random strings)", () => {
    for (let cp = 0; cp <= 0x10ffff; cp++) {
      const ch = String.fromCodePoint(cp);
      const out = transcriptEscape(ch);
      if (hiddenIn(out).length > 0 || hiddenIn(diffEscape(ch)).length > 0)
        throw new Error(`U+${cp.toString(16)} came out raw`);
      if (!hiddenCodePoint(cp) && ch !== "\\" && out !== ch)
        throw new Error(`U+${cp.toString(16)} was escaped`);
    }
    const anyText = fc.string({ unit: "binary", maxLength: 64 });
    fc.assert(
      fc.property(anyText, (s) => {
        expect(hiddenIn(transcriptEscape(s))).toEqual([]);
        expect(hiddenIn(diffEscape(s))).toEqual([]);
        const json = terminalSafeJson({ s });
        expect(hiddenIn(json)).toEqual([]);
        expect((JSON.parse(json) as { s: string }).s).toBe(s);
      }),
    );
  });
});

describe("invisible characters end to end", () => {
  it("approve --diff, the relay's notices and replay show tag characters and hidden names escaped", async () => {
    const box = sandbox();
    const server = ["node", fixture("hidden.mjs"), box.state];
    expect(cli(box, ["approve", "--", ...server]).code).toBe(0);

    const diff = cli(box, ["approve", "--diff", "--", ...server]);
    expect(diff.code).toBe(1);
    expect(hiddenInLines(diff.stdout)).toEqual([]);
    expect(diff.stdout).toContain(`now: "Echo text back${"\\u{e0020}\\u{e0072}\\u{e0065}"}`);
    expect(diff.stdout).toContain('new tool "ec\\xadho\\u3164\\u{e0041}"');

    const hiddenName = "ec\u00adho\u3164\u{e0041}";
    const { stderr } = await session(
      box,
      ["--level", "enforce", "--lock", "effectgate.lock", "--", ...server],
      [...handshake, call(3, hiddenName), call(4, "echo")],
    );
    expect(hiddenInLines(stderr)).toEqual([]);
    expect(stderr).toContain('new tool "ec\\xadho\\u3164\\u{e0041}"');

    const sessions = join(box.home, ".effectgate", "sessions");
    expect(readdirSync(sessions)).toHaveLength(1);
    const replay = cli(box, ["replay", sessions]);
    expect(replay.code).toBe(0);
    expect(hiddenInLines(replay.stdout)).toEqual([]);
    expect(replay.stdout).toContain("tool=ec\\xadho\\u3164\\u{e0041}");
  });

  it("approve escapes a server's error message when the probe fails", () => {
    const box = sandbox();
    const server = join(box.dir, "failing.mjs");
    writeFileSync(
      server,
      `process.stdin.on("data", (d) => { for (const l of String(d).split("\\n").filter(Boolean)) { const m = JSON.parse(l); if (m.id === undefined) continue;
  const answer = m.method === "initialize"
    ? { result: { protocolVersion: "2025-11-25", capabilities: { tools: {} }, serverInfo: { name: "x", version: "1" } } }
    : { error: { code: -32000, message: "no tools\\u001b[2J\\u{e0041}\\u3164" } };
  process.stdout.write(JSON.stringify({ jsonrpc: "2.0", id: m.id, ...answer }) + "\\n"); } });`,
    );
    const r = cli(box, ["approve", "--", "node", server]);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain("tools/list failed: error -32000: no tools\\x1b[2J\\u{e0041}\\u3164");
    expect(hiddenInLines(r.stderr)).toEqual([]);
  });
});
