// The oracle for hidden characters, shared by the in-process and the end-to-end tests.
// Invisible characters from a server must be visible wherever effectgate prints them: approve
// --diff, the relay's pin notices on stderr, and replay. The oracle below is written out here on
// purpose, range by range, rather than taken from src/core/text/terminal-text.ts.

export function hiddenCodePoint(cp: number): boolean {
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
export function hiddenIn(text: string): string[] {
  const out: string[] = [];
  for (let i = 0; i < text.length; i++) {
    const cp = text.codePointAt(i) as number;
    if (cp > 0xffff) i++;
    if (hiddenCodePoint(cp)) out.push(cp.toString(16));
  }
  return out;
}

/** Same, for a program's output: its own line ends are fine. */
export const hiddenInLines = (text: string): string[] => hiddenIn(text.replaceAll("\n", ""));

export const tagged = (s: string): string =>
  [...s].map((c) => String.fromCodePoint(0xe0000 + c.charCodeAt(0))).join("");
