// What a user can do about calls a stricter level would have refused: the one command that
// switches level, and how to make an exception to the rule that refused them.
import { checkCommand } from "../gate/refusal-text.js";

/** Quote for a POSIX shell, only when needed: the lines must be pasteable. */
export function shellWord(s: string): string {
  return /^[A-Za-z0-9_./:=@%+-]+$/.test(s) ? s : `'${s.replace(/'/g, `'\\''`)}'`;
}

/** The command that puts every wrapped server of every client at `level`. */
export function switchCommand(level: "enforce" | "strict"): string {
  return `effectgate install --level ${level}`;
}

/**
 * How to stop a rule from refusing: the policy has no exceptions inside a rule, so the way is to
 * take the pattern out of its list (or move it to a milder one) in the policy file the server
 * runs with. For the shipped policy that file is a copy, named so that the default policy
 * protects it too (`**\/effectgate*.yaml`), then given to install.
 */
export function exceptionAdvice(rule: string, policy: string, shipped: string, home: string): string[] {
  const copy = `${home}/effectgate-policy.yaml`;
  const where = policy === "default" ? `your copy ${copy}` : policy;
  const steps =
    policy === "default"
      ? [`cp ${shellWord(shipped)} ${shellWord(copy)}`, `effectgate install --policy ${shellWord(copy)}`]
      : [];
  const path = /^paths\.(deny|confirm|confirm_if_tainted|deny_read) (.+)$/.exec(rule);
  let what: string;
  if (path) {
    const [, list, pattern] = path as unknown as [string, string, string];
    const milder = list === "deny" ? " (or move it to paths.confirm, to be asked instead)" : "";
    what = `remove ${JSON.stringify(pattern)} from paths.${list} in ${where}${milder}`;
  } else if (rule.startsWith("exec.")) {
    what = `set ${rule.split(" ")[0]} to a milder verdict, or list fewer tools in exec.tools, in ${where}`;
  } else if (rule.startsWith("pins ")) {
    what = `review the change and approve it again: effectgate approve --lock ${shellWord(rule.slice(5))} -- <the server command>`;
    return [what];
  } else if (rule === "unjudgeable") {
    return [
      "no rule to change: the call could not be judged (see the reason); at observe it is only recorded",
    ];
  } else {
    what = `edit the rule ${JSON.stringify(rule)} in ${where}`;
  }
  return [what, ...steps];
}

/** The `effectgate check` line that explains one of the calls. */
export function whyCommand(
  tool: string | undefined,
  method: string,
  params: unknown,
  policy: string,
  tainted: boolean,
): string {
  return checkCommand({ tool: tool ?? method, method, params, policySource: policy, tainted });
}
