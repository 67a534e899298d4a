import type { SimpleCommand, Statement } from "../shell/script-model.js";
import type { Analyser } from "./analyser.js";
import type { Arg, Below, Carries, Stdin } from "./api.js";
import { carriesOf, type Flow, NONE } from "./flow.js";
import { redirects } from "./redirects.js";

// The walk of statements made of statements: lists, pipelines, groups and subshells, function
// definitions, loops and tests. Each part is walked by the analyser (analyser.ts), which reads a
// simple command in simple-command.ts.

/** Values of a `for` loop's variable followed one by one. */
const MAX_LOOP_VALUES = 8;

/** A statement other than a simple command: what it fetched, lists and prints, from its parts. */
export function compoundStatement(an: Analyser, s: Exclude<Statement, SimpleCommand>, stdin: Stdin): Flow {
  switch (s.kind) {
    case "sequence": {
      let fetched = false;
      let lists: string[] | undefined;
      const words: Arg[] = [];
      let fetchedBy: string | undefined;
      for (const item of s.items) {
        const f = an.statement(item, stdin);
        fetched ||= f.fetched;
        fetchedBy ??= f.fetchedBy;
        lists = f.lists ?? lists;
        words.push(...(f.words ?? []));
      }
      return {
        fetched,
        words,
        ...(lists === undefined ? {} : { lists }),
        ...(fetchedBy === undefined ? {} : { fetchedBy }),
      };
    }
    case "pipeline": {
      let network = false;
      let from: string | undefined;
      let items: Below | undefined;
      let words: Arg[] = [];
      let last: Flow = { fetched: false };
      // What each stage may print: all that the stages before it read (and the pipeline's input).
      let carries: Carries = { reads: [], ...carriesOf(stdin) };
      s.stages.forEach((stage, i) => {
        const input: Stdin =
          i === 0
            ? stdin
            : {
                kind: "pipe",
                network,
                words,
                carries,
                ...(items === undefined ? {} : { items }),
                ...(from === undefined ? {} : { from }),
              };
        [last, carries] = an.tap(() => an.statement(stage, input), carries);
        network ||= last.fetched;
        from ??= last.fetchedBy;
        items =
          last.lists === undefined
            ? undefined
            : last.listNames === undefined
              ? { roots: last.lists }
              : { roots: last.lists, names: last.listNames };
        words = last.words ?? [];
      });
      return { fetched: network || last.fetched, ...(from === undefined ? {} : { fetchedBy: from }) };
    }
    case "group": {
      const input = redirects(an, s.redirects, "(group)", s.source, stdin);
      if (!s.subshell) return an.statement(s.body, input);
      const saved = { cwds: [...an.cwds], vars: new Map(an.vars), carried: new Map(an.carried) };
      const f = an.statement(s.body, input);
      an.cwds = saved.cwds;
      an.vars = saved.vars;
      an.carried = saved.carried;
      return f;
    }
    case "function": {
      // The body is judged as if it runs (it may, once called); a call to it adds nothing.
      an.defined.add(s.name);
      const saved = new Map(an.vars);
      for (const p of ["1", "2", "3", "4", "5", "6", "7", "8", "9", "@", "*"]) an.vars.set(p, undefined);
      const f = an.statement(s.body, NONE);
      an.vars = saved;
      return f;
    }
    case "for": {
      let fetched = false;
      // The loop's variable holds what its values carry (`for v in $(cat key)`, decision 0137).
      const [values, held] = an.tap(() => {
        const values = s.values?.map((w) => an.arg(w));
        for (const v of values ?? []) fetched = an.substitutions(v) || fetched;
        return values;
      });
      if (s.variable !== undefined) an.hold(s.variable, held);
      const plain = values?.every((v) => v.value.dynamic === undefined && v.below === undefined) === true;
      if (s.variable === undefined) return an.statement(s.body, stdin);
      if (values !== undefined && plain && values.length > 0 && values.length <= MAX_LOOP_VALUES) {
        for (const v of values) {
          an.vars.set(s.variable, v.value.text);
          fetched = an.statement(s.body, stdin).fetched || fetched;
        }
        return { fetched };
      }
      an.vars.set(s.variable, undefined);
      return { fetched: an.statement(s.body, stdin).fetched || fetched };
    }
    case "test": {
      let fetched = false;
      for (const w of s.words) fetched = an.substitutions(an.arg(w)) || fetched;
      return { fetched };
    }
  }
}
