// What a user can do about calls a stricter level would have refused: the one command that
// switches level, and how to make an exception to the rule that refused them.
import { checkCommand } from "../gate/refusal-text.js";

/** Quote for a POSIX shell, only when needed: the lines must be pasteable. */
function shellWord(s: string): string {
  return /^[A-Za-z0-9_./:=@%+-]+$/.test(s) ? s : `'${s.replace(/'/g, `'\\''`)}'`;
}

/** The command that puts every wrapped server of every client at `level`. */
export function switchCommand(level: "enforce" | "strict"): string {
  return `effectgate install --level ${level}`;
}

/** The copy of the shipped policy an exception is made in, and how it comes into force. */
export function policyCopy(shipped: string, home: string): { file: string; steps: string[] } {
  const file = `${home}/effectgate-policy.yaml`;
  return {
    file,
    steps: [`cp ${shellWord(shipped)} ${shellWord(file)}`, `effectgate install --policy ${shellWord(file)}`],
  };
}

/**
 * How to stop a rule from refusing: the policy has no exceptions inside a rule, so the way is to
 * take the pattern out of its list (or move it to a milder one) in the policy file the server
 * runs with. For the shipped policy that file is a copy (policyCopy), named so that the default
 * policy protects it too (`**\/effectgate*.yaml`), then given to install.
 */
export function exceptionAdvice(rule: string, policy: string, copy: string): string {
  const where = policy === "default" ? `your copy of the policy, ${copy}` : policy;
  const path = /^paths\.(deny|deny_if_tainted|confirm|confirm_if_tainted|deny_read) (.+)$/.exec(rule);
  if (path) {
    const [, list, pattern] = path as unknown as [string, string, string];
    const milder = list === "deny" ? " (or move it to paths.confirm, to be asked instead)" : "";
    return `remove ${JSON.stringify(pattern)} from paths.${list} in ${where}${milder}`;
  }
  if (rule.startsWith("exec."))
    return `set ${rule.split(" ")[0] ?? rule} to a milder verdict, or list fewer tools in exec.tools, in ${where}`;
  if (rule.startsWith("pins "))
    return `review the change, then approve it again: effectgate approve --lock ${shellWord(rule.slice(5))} -- <the server command>`;
  if (rule === "unjudgeable") return "no rule to change: the call could not be judged (see the reason)";
  return `edit the rule ${JSON.stringify(rule)} in ${where}`;
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
