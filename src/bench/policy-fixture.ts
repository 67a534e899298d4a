// Inputs for `npm run bench`: a policy with about `n` path patterns and `n` tool globs, and the
// paths and tool names to ask it about. Tests never time anything; the bench script measures
// load time and per-call cost of this policy against the default and reports the ratio.
import type { PlatformProfile } from "../core/paths/api.js";
import { PATH_LISTS } from "../core/policy/compile-lists.js";
import { loadPolicy } from "../core/policy/load.js";

export const BENCH_PROFILE: PlatformProfile = {
  platform: "linux",
  home: "/home/bench",
  env: { HOME: "/home/bench" },
  cwd: "/home/bench/proj",
};

/**
 * A valid policy text with `n` patterns spread over the four path lists in the forms real
 * policies use (mostly names, some anchored folders, some suffixes) and `n` tool globs split
 * between exec tools and taint sources (mostly literal names, some wildcards).
 */
export function largePolicyText(n = 1000): string {
  const lists: Record<string, string[]> = { deny: [], confirm: [], confirm_if_tainted: [], deny_read: [] };
  const names = Object.keys(lists);
  for (let i = 0; i < n; i += 1) {
    const kind = i % 10;
    const body =
      kind < 6
        ? `**/secret-${i}.json`
        : kind < 8
          ? `~/.tool-${i}/**`
          : kind < 9
            ? `**/*.ext${i}`
            : `**/dir-${i}/sub/**`;
    (lists[names[i % names.length] as string] as string[]).push(body);
  }
  const exec: string[] = [];
  const sources: string[] = [];
  for (let i = 0; i < n; i += 1) {
    const glob = i % 20 === 0 ? `*verb${i}*` : `tool_${i}`;
    (i % 2 === 0 ? exec : sources).push(glob);
  }
  const q = (items: string[]) => items.map((s) => `    - ${JSON.stringify(s)}`).join("\n");
  return [
    "version: 1",
    "mode: enforce",
    "paths:",
    ...names.flatMap((name) => [`  ${name}:`, q(lists[name] as string[])]),
    "exec:",
    "  tools:",
    q(exec),
    "  action: confirm",
    "  action_if_tainted: deny",
    "taint:",
    "  sources:",
    q(sources),
    '  exclude: ["search_files"]',
    "",
  ].join("\n");
}

/** Paths and tool names to look up: some hit early, some late, most miss (as in real traffic). */
function benchQueries(n = 1000): { paths: string[]; tools: string[] } {
  const home = BENCH_PROFILE.home;
  const paths = [
    `${home}/proj/src/index.ts`,
    `${home}/proj/README.md`,
    `${home}/proj/config/secret-${n - 4}.json`,
    `${home}/.tool-6/cache/x`,
    `${home}/proj/a/b/c/d/e/f/g.txt`,
    `${home}/proj/dir-${n - 1}/sub/file`,
    `${home}/proj/build/out.ext8`,
  ];
  const tools = [
    "read_file",
    "write_file",
    `tool_${n - 1}`,
    "Tool_2",
    `x_verb${n - 20}_y`,
    "search_files",
    "fetch",
  ];
  return { paths, tools };
}

/**
 * Load `largePolicyText(n)` and ask it every query `rounds` times. The clock is passed in (core
 * reads no clock); the bench script prints the numbers beside the default policy's.
 */
export function measurePolicyCost(
  now: () => number,
  n = 1000,
  rounds = 200,
): { patterns: number; loadMs: number; lookupUs: number; hits: number } {
  const text = largePolicyText(n);
  const t0 = now();
  const policy = loadPolicy(text, "bench", "0".repeat(64), BENCH_PROFILE);
  const loadMs = now() - t0;
  const { paths, tools } = benchQueries(n);
  let hits = 0;
  let lookups = 0;
  const t1 = now();
  for (let r = 0; r < rounds; r += 1) {
    for (const p of paths) {
      for (const list of PATH_LISTS) {
        lookups += 1;
        if (policy.matchPath(list, p) !== undefined) hits += 1;
      }
    }
    for (const tool of tools) {
      lookups += 2;
      if (policy.execGlob(tool) !== undefined) hits += 1;
      if (policy.taintSource(tool) !== undefined) hits += 1;
    }
  }
  return { patterns: n, loadMs, lookupUs: ((now() - t1) * 1000) / lookups, hits };
}
