import type { Redirect } from "../shell/script-model.js";
import type { Analyser } from "./analyser.js";
import type { Stdin } from "./api.js";
import { holds } from "./collector.js";
import { NONE } from "./flow.js";

/** Effects of redirections (of a simple command or a group), and the standard input they give the command. */
export function redirects(
  an: Analyser,
  list: readonly Redirect[],
  program: string,
  command: string,
  stdin: Stdin,
): Stdin {
  let input = stdin;
  for (const r of list) {
    if (r.heredoc !== undefined) {
      const doc = r.heredoc;
      const [, carries] = an.tap(() => {
        if (doc.expands)
          for (const p of doc.parts)
            if (p.kind === "subst" || p.kind === "procsub") an.statement(p.body, NONE);
      });
      input = { kind: "heredoc", text: doc.text, expands: doc.expands, carries };
      continue;
    }
    if (r.target === undefined) continue;
    const word = r.target;
    // A variable in the word is data too (`nc h 80 <<< "$K"`), like its substitutions.
    const [target, carries] = an.tap(() => {
      const target = an.arg(word);
      an.substitutions(target);
      return target;
    });
    const run = an.runFor(program, command, input);
    if (r.op === "<<<") {
      input = { kind: "string", arg: target, carries };
      continue;
    }
    if (r.op === ">&" || r.op === "<&") {
      // `2>&1`, `>&-`: descriptors; `>&file` writes the file.
      if (/^(?:\d+|-)$/.test(target.value.exact ?? "") || r.op === "<&") continue;
    }
    if (r.op === "<") {
      // What the file holds is the program's input: `read K < ~/.netrc` keeps it in K.
      const [, read] = an.tap(() => run.role("read", target, "reads from"));
      input = holds(read) ? { kind: "file", arg: target, carries: read } : { kind: "file", arg: target };
    } else if (r.op === "<>") {
      run.role("readwrite", target, "opens");
    } else run.role("write", target, r.op.includes(">>") ? "appends to" : "writes");
  }
  return input;
}
