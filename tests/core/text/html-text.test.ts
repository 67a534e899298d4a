// The HTML escaper of replay's and status's pages: every character HTML gives meaning to in text
// and in a double-quoted attribute, and every hidden character, comes out visible and inert.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { htmlText } from "../../../src/core/text/html-text.js";

describe("htmlText", () => {
  it.each([
    ["<script>alert(1)</script>", "&lt;script&gt;alert(1)&lt;/script&gt;"],
    [`" onmouseover="x`, "&quot; onmouseover=&quot;x"],
    ["' autofocus onfocus='x", "&#39; autofocus onfocus=&#39;x"],
    ["a & b &amp;", "a &amp; b &amp;amp;"],
    ["evil\u001b[2J\u202etxt.exe", "evil\\x1b[2J\\u202etxt.exe"],
    ["line\nbreak", "line\\x0abreak"],
    ["C:\\Users\\ana", "C:\\Users\\ana"],
  ])("%j → %j", (input, out) => {
    expect(htmlText(input)).toBe(out);
  });

  it("never lets a markup character or a hidden one through", () => {
    fc.assert(
      fc.property(fc.string({ unit: "binary" }), (s) => {
        const out = htmlText(s);
        expect(out).not.toMatch(/[<>"']/);
        // Every & starts one of the entities written here.
        expect(out.replace(/&(amp|lt|gt|quot|#39);/g, "")).not.toContain("&");
        // eslint-disable-next-line no-control-regex -- none may remain
        expect(out).not.toMatch(/[\u0000-\u001f\u007f-\u009f\u200b-\u200f\u202a-\u202e\u2066-\u2069]/);
      }),
    );
  });
});
