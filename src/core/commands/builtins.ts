import type { Analyser } from "./analyser.js";
import type { Arg } from "./api.js";
import { carriesOf, literalArg } from "./flow.js";
import type { ProgramRun } from "./program-run.js";

const BUILTIN_NONE = new Set(
  "true false : echo printf test [ pwd type hash wait jobs let shift return exit break continue umask ulimit getopts times set shopt bg fg disown dirs caller enable help logout suspend kill complete compgen compopt popd history".split(
    " ",
  ),
);

/** Shell builtins and keywords that change the shell or run other commands; false for any other name. */
export function runBuiltin(
  an: Analyser,
  run: ProgramRun,
  name: string,
  rest: Arg[],
  fetchedArgs: ReadonlySet<Arg>,
): boolean {
  switch (name) {
    case "cd":
    case "pushd": {
      // Options come first and `--` ends them: `cd -- ~/.ssh` goes to ~/.ssh, not to a folder "--".
      let i = 0;
      while (i < rest.length && /^-[LPe@]+$/.test(rest[i]?.value.exact ?? "")) i++;
      if (rest[i]?.value.exact === "--") i++;
      const dir = rest[i] ?? literalArg("~");
      an.changeDir(dir);
      run.cls("none", `${name} changes the working folder`);
      return true;
    }
    case "export":
    case "declare":
    case "typeset":
    case "local":
    case "readonly":
    case "unset":
      if (name === "unset")
        for (const a of rest)
          if (a.value.exact !== undefined && !a.value.exact.startsWith("-")) {
            an.vars.set(a.value.exact, "");
            an.hold(a.value.exact, undefined);
          }
      // With no names, or only -p (-x, -g), they print the variables: exported ones are the environment.
      if (name !== "unset" && rest.every((a) => /^-[pxg]+$/.test(a.value.exact ?? "")))
        run.printsEnvironment(
          `${name}${rest.length === 0 ? "" : ` ${rest.map((a) => a.value.exact).join(" ")}`}`,
        );
      run.cls("none", `${name} sets variables`);
      return true;
    case "read":
    case "mapfile":
    case "readarray": {
      // What the input holds is kept in the variables: `read K < ~/.netrc` (decision 0137).
      const c = carriesOf(run.stdin);
      const held = { reads: [], ...c };
      for (const a of rest)
        if (a.value.exact !== undefined && /^[A-Za-z_]\w*$/.test(a.value.exact)) {
          an.vars.set(a.value.exact, undefined);
          an.hold(a.value.exact, held);
        }
      if (
        name !== "read" ||
        !rest.some((a) => a.value.exact !== undefined && /^[A-Za-z_]\w*$/.test(a.value.exact))
      ) {
        const into = name === "read" ? "REPLY" : "MAPFILE";
        an.vars.set(into, undefined);
        an.hold(into, held);
      }
      run.cls("none", `${name} reads its standard input into variables`);
      return true;
    }
    case "alias":
      for (const a of rest) {
        const t = a.value.exact ?? "";
        const eq = t.indexOf("=");
        if (eq <= 0) continue;
        an.defined.add(t.slice(0, eq));
        run.shell(literalArg(t.slice(eq + 1)));
      }
      run.cls("none", "alias defines commands");
      return true;
    case "source":
    case ".": {
      const file = rest[0];
      if (file === undefined) return (run.unknown(`${name} without a file`), true);
      if (file.value.procsub !== undefined) {
        if (fetchedArgs.has(file)) run.cls("network-code", `${name} runs code fetched from the network`);
        else run.unknown(`${name} runs what another command prints`);
        return true;
      }
      run.role("exec", file, "runs in this shell");
      for (const a of rest.slice(1)) run.role("candidate", a);
      return true;
    }
    case "eval": {
      if (rest.some((a) => fetchedArgs.has(a)))
        return (run.cls("network-code", "eval runs code fetched from the network"), true);
      if (rest.some((a) => a.value.exact === undefined))
        return (run.unknown("eval runs code known only at run time"), true);
      run.shell(literalArg(rest.map((a) => a.value.exact).join(" ")));
      return true;
    }
    case "trap": {
      // `trap CODE SIGNAL…` runs CODE later in this shell: judged as eval judges it.
      const code = rest[0];
      if (code !== undefined && rest.length > 1 && !/^-/.test(code.value.exact ?? code.value.text)) {
        if (fetchedArgs.has(code))
          return (run.cls("network-code", "trap runs code fetched from the network"), true);
        if (code.value.exact === undefined)
          return (run.unknown("trap runs code known only at run time"), true);
        run.shell(code);
      }
      run.cls("none", "trap sets what runs on a signal");
      return true;
    }
    case "exec":
    case "builtin":
    case "time":
    case "coproc":
    case "command": {
      let i = 0;
      while (i < rest.length && /^-[a-zA-Z]+$/.test(rest[i]?.value.exact ?? "")) i++;
      if (name === "command" && rest.slice(0, i).some((a) => /[vV]/.test(a.value.exact ?? "")))
        return (run.cls("reads", "command -v looks a program up"), true);
      // `coproc NAME` names only a compound command; before a simple command the first word is
      // the program (`coproc tee cat ~/.bashrc` runs tee).
      const inner = rest.slice(i);
      if (inner.length === 0) return (run.cls("none", `${name} changes the shell`), true);
      run.takeOver(an.invoke(inner[0] as Arg, inner.slice(1), run.stdin, run.command, fetchedArgs));
      return true;
    }
    case "fc":
      run.unknown("fc runs an editor and then the edited commands");
      return true;
    default:
      if (!BUILTIN_NONE.has(name)) return false;
      if (name === "set" && rest.length === 0) run.printsEnvironment("set");
      if (name === "printf") {
        const v = rest.findIndex((a) => a.value.exact === "-v");
        const target = rest[v + 1]?.value.exact;
        if (v >= 0 && target !== undefined) an.vars.set(target, undefined);
      }
      run.cls(name === "history" ? "reads" : "none", `${name} is a shell builtin`);
      return true;
  }
}
