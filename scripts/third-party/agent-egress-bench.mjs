#!/usr/bin/env node
// Pipelock's agent-egress-bench, its `transport: mcp_stdio` cases, through the built relay in
// front of a recording fixture, scored by what reached the server (docs/third-party-suites.md).
//
//   npm run build
//   node scripts/third-party/agent-egress-bench.mjs --suite PATH [--level observe|enforce|strict|off]... [--json FILE]
//
// PATH is a checkout of https://github.com/luckyPipewrench/agent-egress-bench (its cases/ folder,
// or a folder of case files in its format). Without --level every level runs, and `off`
// (EFFECTGATE_OFF=1) is the floor.
import { readFileSync, statSync, writeFileSync } from "node:fs";
import { Command, Option } from "commander";
import { planCase, scoreCase } from "./egress-bench-plan.mjs";
import { madeSecrets } from "./made-secrets.mjs";
import { didReach, LEVELS, runSession } from "./relay-session.mjs";
import { printTable } from "./score-table.mjs";
import { suiteFiles } from "./suite-files.mjs";

/** Every case file under `dir`, recursively, that is an mcp_stdio case. */
export function readCases(dir) {
  const out = [];
  for (const p of suiteFiles(dir, "cases", (name) => name.endsWith(".json"))) {
    let c;
    try {
      c = JSON.parse(readFileSync(p, "utf8"));
    } catch (e) {
      throw new Error(`${p}: expected a case in JSON, got ${e.message}`, { cause: e });
    }
    if (c?.transport === "mcp_stdio") out.push(c);
  }
  return out;
}

/** Runs `cases` at `level`; one row per case. */
export async function runCases(cases, level, { home, secrets = madeSecrets() } = {}) {
  const rows = [];
  for (const c of cases) {
    const plan = planCase(c, secrets);
    if (!plan.applicable) {
      rows.push({
        id: c.id,
        category: c.category,
        level,
        expected: c.expected_verdict,
        score: "not-applicable",
        note: plan.reason,
      });
      continue;
    }
    const outcome = await runSession({
      level,
      rules: plan.rules,
      steps: plan.steps,
      approveFirst: plan.approveRules !== undefined,
      approveRules: plan.approveRules,
      home,
    });
    rows.push({
      id: c.id,
      category: c.category,
      level,
      expected: c.expected_verdict,
      score: scoreCase(c, plan, outcome, didReach),
    });
  }
  return rows;
}

async function main() {
  const program = new Command("agent-egress-bench")
    .requiredOption("--suite <path>", "a checkout of agent-egress-bench, or a folder of its case files")
    .addOption(new Option("--level <level...>", "levels to run (default: all)").choices(LEVELS))
    .option("--home <dir>", "what ~ means to the relay: the suite's paths name /home/user", "/home/user")
    .option("--json <file>", "also write every row as JSON")
    .option("--cases", "print one line per case");
  // Bad options are exit 2, as everywhere in effectgate; commander has said what was wrong.
  program.exitOverride();
  try {
    program.parse();
  } catch (e) {
    process.exit(e.exitCode === 0 ? 0 : 2);
  }
  const opts = program.opts();
  if (!statSync(opts.suite, { throwIfNoEntry: false })?.isDirectory())
    throw new Error(`--suite: expected a folder (a checkout of agent-egress-bench), got ${opts.suite}`);
  const cases = readCases(opts.suite);
  if (cases.length === 0)
    throw new Error(`${opts.suite}: expected mcp_stdio case files (cases/<category>/*.json), got none`);
  const rows = [];
  for (const level of opts.level ?? LEVELS) rows.push(...(await runCases(cases, level, { home: opts.home })));
  printTable(rows, { perCase: opts.cases === true });
  if (opts.json) writeFileSync(opts.json, JSON.stringify(rows, null, 2) + "\n");
}

if (process.argv[1] === import.meta.filename) {
  main().catch((e) => {
    process.stderr.write(`agent-egress-bench: ${e.message}\n`);
    process.exit(2);
  });
}
