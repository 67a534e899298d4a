// Tool, server and variable globs mean what docs/policy.md says: `*` any run (also `/`), `?` one
// character, `[…]` a class (`[!x]` and `[^x]` negate, as in path patterns), `{a,b}`
// alternatives; matched without regard to case. Anything else is refused with exit 78.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { GlobSet, globProblem } from "../../../src/core/policy/globs.js";
import { MALFORMED_GLOBS, problemsOf } from "../../helpers/policy.js";

/** The documented meaning, written plainly: expand {…}, then match character by character. */
function expand(glob: string): string[] {
  const open = glob.indexOf("{");
  if (open < 0) return [glob];
  let depth = 0;
  const cuts: number[] = [];
  let close = open;
  for (let i = open; i < glob.length; i += 1) {
    if (glob[i] === "{") depth += 1;
    else if (glob[i] === "}") depth -= 1;
    else if (glob[i] === "," && depth === 1) cuts.push(i);
    if (depth === 0) {
      close = i;
      break;
    }
  }
  const bounds = [open, ...cuts, close];
  const alts = bounds.slice(1).map((end, k) => glob.slice((bounds[k] as number) + 1, end));
  return alts.flatMap((alt) => expand(glob.slice(0, open) + alt + glob.slice(close + 1)));
}

function matches(glob: string, name: string): boolean {
  if (glob === "") return name === "";
  const c = glob[0] as string;
  if (c === "*") return [...Array(name.length + 1).keys()].some((k) => matches(glob.slice(1), name.slice(k)));
  if (name === "") return false;
  if (c === "?") return matches(glob.slice(1), name.slice(1));
  if (c === "[") {
    const negate = glob[1] === "!" || glob[1] === "^";
    const from = negate ? 2 : 1;
    const end = glob.indexOf("]", from + 1);
    const body = glob.slice(from, end);
    const ch = (name[0] as string).toLowerCase();
    let hit = false;
    for (let i = 0; i < body.length; i += 1) {
      if (body[i + 1] === "-" && i + 2 < body.length) {
        const lo = body[i] as string;
        const hi = body[i + 2] as string;
        hit ||= [ch, ch.toUpperCase()].some((x) => x >= lo && x <= hi);
        i += 2;
      } else hit ||= (body[i] as string).toLowerCase() === ch;
    }
    return hit !== negate && matches(glob.slice(end + 1), name.slice(1));
  }
  return c.toLowerCase() === (name[0] as string).toLowerCase() && matches(glob.slice(1), name.slice(1));
}

const documented = (glob: string, name: string) => expand(glob).some((g) => matches(g, name));

describe("tool-name globs mean what the docs say", () => {
  it.each([
    ["[!z]ash", "bash", true],
    ["[!z]ash", "zash", false],
    ["[!z]ash", "!ash", true],
    ["[^z]ash", "bash", true],
    ["[^z]ash", "Zash", false],
    ["[]a]x", "]x", true],
    ["[a-c]md", "Bmd", true],
    ["{sh,zsh}", "sh", true],
    ["{sh,zsh}", "ZSH", true],
    ["x{a,{b,c}}y", "xcy", true],
    ["{,run_}cmd", "cmd", true],
    ["*exec*", "ns/exec", true],
    ["?exec", "/exec", true],
    ["[!a]exec", "/exec", true],
    ["[*]x", "*x", true],
    ["a!b", "a!b", true],
    ["a.b", "axb", false],
    // A regex character next to a wildcard is still itself.
    ["a.b*", "axbz", false],
    ["a+b?", "a+bc", true],
    // A class holds its own characters only; a one-letter range is a range.
    ["[ab]x", "Sx", false],
    ["[a-a]x", "ax", true],
  ])("%s on %s: %s", (glob, name, expected) => {
    expect(globProblem(glob)).toBeUndefined();
    expect(new GlobSet([glob]).first(name) !== undefined).toBe(expected);
    expect(documented(glob, name)).toBe(expected);
  });

  it("agree with the documented meaning for any glob of the documented syntax", () => {
    const atom = fc.oneof(
      fc.constantFrom("a", "b", "/", ".", "*", "?", "[ab]", "[!a]", "[^b]", "[a-b]", "[]a]"),
      fc.constantFrom("{a,b}", "{,a*}", "{a?,[!b]b}"),
    );
    const glob = fc.array(atom, { minLength: 1, maxLength: 5 }).map((a) => a.join(""));
    const name = fc.stringMatching(/^[abAB/.!\]]{0,6}$/);
    fc.assert(
      fc.property(glob, name, (g, n) => {
        expect(globProblem(g)).toBeUndefined();
        expect(new GlobSet([g]).first(n) !== undefined, `${g} on ${n}`).toBe(documented(g, n));
      }),
    );
  });
});

describe("globs outside the documented syntax are refused", () => {
  it.each([
    ["{sh,zsh", "a glob with every { closed by }"],
    ["{a}", "a glob whose {…} lists at least two alternatives separated by ,"],
    ["{a..c}", "a glob whose {…} lists at least two alternatives separated by ,"],
    ["[!z", "a glob with every [ closed by ]"],
    ["[]", "a glob with every [ closed by ]"],
    ["[!]", "a glob with every [ closed by ]"],
    ["[z-a]x", "a glob whose [a-z] ranges go from low to high"],
    ["[[:alpha:]]", "a glob whose […] classes hold plain characters (no [ or \\ inside)"],
    ["ba\\sh", "a glob without \\ (there is no escaping: write [*] for a literal *)"],
    ["sh}", "a glob without a stray }"],
    ["sh]", "a glob without a stray ]"],
    ["@(sh|bash)", "a glob of *, ?, […] and {a,b} ((…|…) groups are not glob syntax)"],
    ["a(b", "a glob of *, ?, […] and {a,b} ((…|…) groups are not glob syntax)"],
    ["a)b", "a glob of *, ?, […] and {a,b} ((…|…) groups are not glob syntax)"],
    ["[a\\b]", "a glob whose […] classes hold plain characters (no [ or \\ inside)"],
    ["{a,[b}", "a glob with every [ closed by ]"],
    ["a|b", "a glob of *, ?, […] and {a,b} ((…|…) groups are not glob syntax)"],
  ])("%s", (glob, expected) => {
    expect(globProblem(glob)).toBe(expected);
  });

  it("says so per key and line", () => {
    const text = MALFORMED_GLOBS;
    expect(problemsOf(text)).toEqual([
      'team.yaml:3: exec.tools[1]: expected a glob with every { closed by }, got "{sh,zsh"',
      'team.yaml:6: taint.sources[0]: expected a glob without \\ (there is no escaping: write [*] for a literal *), got "ba\\\\sh"',
      'team.yaml:7: taint.exclude[0]: expected a glob with every [ closed by ], got "[x"',
      'team.yaml:8: taint.servers[0]: expected a glob without a stray }, got "a}"',
    ]);
  });

});

describe("glob length", () => {
  it("takes a glob of up to 65,536 characters, and refuses a longer one", () => {
    expect(globProblem(`${"a".repeat(65_535)}*`)).toBeUndefined();
    expect(globProblem(`${"a".repeat(65_536)}*`)).toBe("a well-formed glob");
  });
});
