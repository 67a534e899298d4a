// The ways out that `effectgate status` prints: the switch, the copy of the shipped policy an
// exception is made in, the exception for each kind of rule, and the check line that explains a
// call. Every line must be pasteable into a POSIX shell.
import { describe, expect, it } from "vitest";
import { exceptionAdvice, policyCopy, switchCommand, whyCommand } from "../../../src/core/status/advice.js";

const COPY = "/home/u/effectgate-policy.yaml";

describe("switchCommand", () => {
  it("names the level", () => {
    expect(switchCommand("enforce")).toBe("effectgate install --level enforce");
    expect(switchCommand("strict")).toBe("effectgate install --level strict");
  });
});

describe("policyCopy", () => {
  it("copies the shipped policy into the home folder and installs the copy", () => {
    expect(policyCopy("/usr/lib/node_modules/effectgate/policy/default.yaml", "/home/u")).toEqual({
      file: COPY,
      steps: [
        `cp /usr/lib/node_modules/effectgate/policy/default.yaml ${COPY}`,
        `effectgate install --policy ${COPY}`,
      ],
    });
  });

  it("leaves words of the safe characters unquoted", () => {
    const safe = "C:/Az_09.x/=@%+-";
    expect(policyCopy(safe, "/h").steps[0]).toBe(`cp ${safe} /h/effectgate-policy.yaml`);
  });

  it.each([
    ["/home/a b", "'/home/a b/effectgate-policy.yaml'"],
    ["/home/o'neil", "'/home/o'\\''neil/effectgate-policy.yaml'"],
    ["/home/$USER", "'/home/$USER/effectgate-policy.yaml'"],
    ["a b/x", "'a b/x/effectgate-policy.yaml'"],
  ])("quotes a home of %j for the shell", (home, quoted) => {
    const c = policyCopy("/p.yaml", home);
    expect(c.steps).toEqual([`cp /p.yaml ${quoted}`, `effectgate install --policy ${quoted}`]);
  });
});

describe("exceptionAdvice", () => {
  it("says to remove a denied pattern from the copy, or to move it to confirm", () => {
    expect(exceptionAdvice("paths.deny ~/.ssh/**", "default", COPY)).toBe(
      `remove "~/.ssh/**" from paths.deny in your copy of the policy, ${COPY} (or move it to paths.confirm, to be asked instead)`,
    );
  });

  it.each(["deny_if_tainted", "confirm", "confirm_if_tainted", "deny_read"])(
    "says to remove a pattern from paths.%s, in the policy the server runs with",
    (list) => {
      expect(exceptionAdvice(`paths.${list} **/.env`, "/etc/p.yaml", COPY)).toBe(
        `remove "**/.env" from paths.${list} in /etc/p.yaml`,
      );
    },
  );

  it.each(["xpaths.deny a", "paths.denied a", "paths.deny", "paths.deny_readx a"])(
    "treats %j as some other rule",
    (rule) => {
      expect(exceptionAdvice(rule, "/etc/p.yaml", COPY)).toBe(
        `edit the rule ${JSON.stringify(rule)} in /etc/p.yaml`,
      );
    },
  );

  it("treats a rule with a line break as some other rule, not cutting its pattern there", () => {
    expect(exceptionAdvice("paths.deny a\nb", "/etc/p.yaml", COPY)).toBe(
      `edit the rule "paths.deny a\\nb" in /etc/p.yaml`,
    );
  });

  it("names the exec setting, not the rest of the rule", () => {
    expect(exceptionAdvice("exec.action_if_tainted curl", "default", COPY)).toBe(
      `set exec.action_if_tainted to a milder verdict, or list fewer tools in exec.tools, in your copy of the policy, ${COPY}`,
    );
  });

  it("sends a pin change to review and approve, with the lock quoted", () => {
    expect(exceptionAdvice("pins /home/u/lock.json", "default", COPY)).toBe(
      "review the change, then approve it again: effectgate approve --lock /home/u/lock.json -- <the server command>",
    );
    expect(exceptionAdvice("pins /home/a b/lock.json", "default", COPY)).toContain(
      "--lock '/home/a b/lock.json' --",
    );
  });

  it("has no rule to change for a call that could not be judged", () => {
    expect(exceptionAdvice("unjudgeable", "default", COPY)).toBe(
      "no rule to change: the call could not be judged (see the reason)",
    );
  });

  it("edits any other rule where it is", () => {
    expect(exceptionAdvice("egress.deny", "default", COPY)).toBe(
      `edit the rule "egress.deny" in your copy of the policy, ${COPY}`,
    );
  });
});

describe("whyCommand", () => {
  it("checks a tool call under the call's policy and taint", () => {
    expect(whyCommand("read_file", "tools/call", { arguments: { path: "/x" } }, "default", false)).toBe(
      `effectgate check --tool 'read_file' --args '{"path":"/x"}'`,
    );
    expect(whyCommand("read_file", "tools/call", { arguments: {} }, "/p q.yaml", true)).toBe(
      `effectgate check --policy '/p q.yaml' --tainted --tool 'read_file' --args '{}'`,
    );
  });

  it("names the method when the call has no tool", () => {
    expect(whyCommand(undefined, "prompts/get", { arguments: { a: 1 } }, "default", false)).toBe(
      `effectgate check --method prompts/get --tool 'prompts/get' --args '{"a":1}'`,
    );
  });
});
