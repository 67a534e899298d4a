import { type Verdict, VERDICT_RANK } from "../types.js";
import type { DecideContext } from "./decide.js";
import type { JudgedEffect } from "./judge-effect.js";

/**
 * What the effects of a parsed command amount to together, beyond each path's own rule
 * (docs/decisions/0080-command-verdicts.md):
 * - a removal or mode change of a whole tree at a protected root, or above one, is destructive;
 * - running a file this session (or this command) downloaded is running code from the network;
 * - running project code after this session wrote a file that decides what runs (a package.json,
 *   a Makefile, a script, a CI file, a hook) in or above the folder it runs in, or the script it
 *   runs, is "write then run".
 */

const parentOf = (p: string): string => {
  const i = Math.max(p.lastIndexOf("/"), p.lastIndexOf("\\"));
  return i <= 0 ? p.slice(0, i + 1) || p : p.slice(0, i);
};

/** `inner` is `outer` or below it. */
const within = (inner: string, outer: string): boolean =>
  inner === outer ||
  inner.startsWith(outer.endsWith("/") || outer.endsWith("\\") ? outer : `${outer}/`) ||
  inner.startsWith(`${outer}\\`);

export function commandFacts(items: JudgedEffect[], cx: DecideContext): JudgedEffect[] {
  const c = cx.policy.commands;
  const { profile, resolver } = cx.env;
  const written = new Set(cx.commands?.written ?? []);
  const downloaded = new Set(cx.commands?.downloaded ?? []);
  for (const i of items) {
    if (i.effect.via === undefined || i.effect.operation !== "write" || i.resolved === undefined) continue;
    written.add(i.resolved);
    if (i.effect.via.downloaded === true) downloaded.add(i.resolved);
  }
  const canonical = (spelled: string | undefined): string | undefined => {
    const r = cx.canonicalise(spelled ?? profile.cwd, profile, resolver);
    return r.ok ? r.resolved : undefined;
  };
  const taint = cx.tainted ? ", and this session has taken in untrusted content" : "";
  return items.map((item) => {
    const via = item.effect.via;
    if (via === undefined) return item;
    const raise = (verdict: Verdict, rule: string, reason: string, orEqual = false): JudgedEffect =>
      VERDICT_RANK[verdict] > VERDICT_RANK[item.verdict] ||
      (orEqual && VERDICT_RANK[verdict] === VERDICT_RANK[item.verdict])
        ? { ...item, verdict, rule, reason }
        : item;
    if (via.tree === true && item.effect.kind === "path" && item.resolved !== undefined) {
      for (const form of new Set([item.lexical, item.resolved])) {
        if (form === undefined) continue;
        const root = c.protectedRoot(form, resolver);
        if (root !== undefined)
          // Said even when a path rule below the folder denies too: it says more.
          return raise(
            c.destructive,
            "commands.destructive",
            `${via.command}: ${via.does} ${form}, a protected root (commands.protected_roots ${root}; commands.destructive is ${c.destructive})`,
            true,
          );
      }
      return item;
    }
    if (via.class !== "project") return item;
    const after = cx.tainted ? c.afterWriteIfTainted : c.afterWrite;
    const afterKey = cx.tainted ? "after_write_if_tainted" : "after_write";
    if (via.runs !== undefined) {
      const file = canonical(via.runs);
      if (file !== undefined && downloaded.has(file))
        return raise(
          c.networkCode,
          "commands.network_code",
          `${via.command}: runs ${file}, which was downloaded in this session (commands.network_code is ${c.networkCode})`,
        );
      if (file !== undefined && written.has(file))
        return raise(
          after,
          `commands.${afterKey}`,
          `${via.command}: runs ${file}, which this session wrote (commands.${afterKey} is ${after}${taint})`,
        );
    }
    const cwd = canonical(via.cwd);
    if (cwd === undefined) return item;
    for (const p of written) {
      const pattern = c.decidesWhatRuns(p, resolver);
      if (pattern === undefined) continue;
      if (within(p, cwd) || within(cwd, parentOf(p)))
        return raise(
          after,
          `commands.${afterKey}`,
          `${via.command}: ${via.does} in ${cwd} after this session wrote ${p}, which decides what runs (commands.decides_what_runs ${pattern}; commands.${afterKey} is ${after}${taint})`,
        );
    }
    return item;
  });
}
