import { spawnSync } from "node:child_process";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { defaultJudge } from "../../helpers/commands.js";
import { call } from "../../helpers/judge.js";

// Every quoting and escaping spelling of a protected target, in the places a command writes:
// a redirection, a cp destination, a sed -i file, and a relative name after a cd. Each must be
// judged as the plain path is (decision 0079). A second property runs the same spellings
// through real bash, so that the spellings are the words bash really hands a program.

/** One shell spelling of `text`: each character quoted, escaped or split by a line continuation at random. */
const spelling = (text: string): fc.Arbitrary<string> =>
  fc
    .array(fc.integer({ min: 0, max: 6 }), { minLength: text.length, maxLength: text.length })
    .chain((styles) =>
      fc.constant(
        Array.from(text)
          .map((c, i) => {
            switch (styles[i]) {
              case 1:
                return `'${c}'`;
              case 2:
                return `"${c}"`;
              case 3:
                return `\\${c}`;
              case 4:
                return `$'\\x${c.charCodeAt(0).toString(16).padStart(2, "0")}'`;
              case 5:
                return `$'\\${c.charCodeAt(0).toString(8).padStart(3, "0")}'`;
              case 6:
                // A line continuation: bash deletes it before it splits words.
                return `\\\n${c}`;
              default:
                return c;
            }
          })
          .join(""),
      ),
    );

/** `~` expands only unquoted at the start: the home folder is spelled as `~/` or `$HOME/`, the rest quoted at will. */
const homePath = (rest: string): fc.Arbitrary<string> =>
  fc
    .tuple(fc.constantFrom("~/", "$HOME/", '"$HOME"/', "${HOME}/", '"${HOME}/"'), spelling(rest))
    .map(([home, tail]) => `${home}${tail}`);

const judge = (command: string, cwd?: string) =>
  defaultJudge().judge("tools/call", call("run_command", cwd === undefined ? { command } : { command, cwd }));

const PLACES: Array<{ name: string; command: (target: string) => string }> = [
  { name: "a redirection", command: (t) => `echo x >> ${t}` },
  { name: "a cp destination", command: (t) => `cp notes.txt ${t}` },
  { name: "a sed -i file", command: (t) => `sed -i 's/a/b/' ${t}` },
  { name: "tee's operand", command: (t) => `echo x | tee -a ${t}` },
];

describe("every spelling of a protected target is judged like the plain path", () => {
  for (const place of PLACES) {
    it(`in ${place.name}`, () => {
      const plain = judge(place.command("~/.bashrc"));
      expect(plain).toMatchObject({ verdict: "deny", rule: "paths.deny ~/.bashrc" });
      fc.assert(
        fc.property(homePath(".bashrc"), (target) => {
          const d = judge(place.command(target));
          expect(d.verdict, target).toBe("deny");
          expect(d.rule, target).toBe("paths.deny ~/.bashrc");
        }),
        { numRuns: 150 },
      );
    });
  }

  it("after a cd, in a relative name", () => {
    fc.assert(
      fc.property(
        fc.constantFrom("cd ~", "cd", "cd $HOME", 'cd "$HOME"', "cd ~/project/..", "pushd ~ >/dev/null"),
        spelling(".bashrc"),
        (cd, name) => {
          const d = judge(`${cd} && echo x >> ${name}`);
          expect(d.verdict, `${cd} ${name}`).toBe("deny");
          expect(d.rule).toBe("paths.deny ~/.bashrc");
        },
      ),
      { numRuns: 150 },
    );
  });

  it("and a harmless name in the same places stays allowed", () => {
    fc.assert(
      fc.property(spelling("notes.md"), (name) => {
        for (const place of PLACES)
          expect(judge(place.command(name)).verdict, place.command(name)).toBe("allow");
      }),
      { numRuns: 60 },
    );
  });
});

describe("the spellings are the words bash hands a program", () => {
  const bash = spawnSync("bash", ["--version"]).status === 0;
  it.runIf(bash)("decodes each spelling to the plain text, as bash does", () => {
    fc.assert(
      fc.property(spelling(".ssh/authorized_keys"), (s) => {
        const r = spawnSync("bash", ["--norc", "--noprofile", "-c", `printf '%s' ${s}`], {
          encoding: "utf8",
        });
        expect(r.stdout, s).toBe(".ssh/authorized_keys");
        expect(judge(`echo k >> ~/${s}`)).toMatchObject({ verdict: "deny", rule: "paths.deny ~/.ssh/**" });
      }),
      { numRuns: 80 },
    );
  });
});
