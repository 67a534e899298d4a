#!/usr/bin/env node
// MCPTrust's mcp-adversarial-suite, its scenarios/ YAML, through the built relay in front of a
// recording fixture that plays each scenario's server, scored by what reached the server (and,
// for spoofed answers, the client). See docs/third-party-suites.md.
//
//   npm run build
//   node scripts/third-party/mcp-adversarial-suite.mjs --suite PATH [--level observe|enforce|strict|off]... [--json FILE]
//
// PATH is a checkout of https://github.com/mcptrust/mcp-adversarial-suite (or a folder of
// scenario files in its format). Each scenario runs without a lock and with a lock approved on
// the server's baseline.
import { readFileSync, statSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { Command, Option } from "commander";
import { parse } from "yaml";
import { planScenario, scoreScenario } from "./adversarial-suite-plan.mjs";
import { didReach, LEVELS, runSession } from "./relay-session.mjs";
import { printTable, tally } from "./score-table.mjs";
import { suiteFiles } from "./suite-files.mjs";

/** Every scenario file under `dir` (recursively), parsed, with its expected_outcomes file. */
export function readScenarios(dir) {
  const out = [];
  for (const p of suiteFiles(dir, "scenarios", (name) => /\.ya?ml$/.test(name))) {
    let scenario;
    try {
      scenario = parse(readFileSync(p, "utf8"));
    } catch (e) {
      throw new Error(`${p}: expected a scenario in YAML, got ${e.message}`, { cause: e });
    }
    if (typeof scenario?.name !== "string") throw new Error(`${p}: name: expected a scenario name, got none`);
    let expected;
    if (typeof scenario.expected_outcomes === "string") {
      // The suite names the file from its root (scenarios/insecurefs/…); a copy may hold it beside the scenario.
      const candidates = [
        join(dir, "..", scenario.expected_outcomes),
        join(dirname(p), scenario.expected_outcomes.split("/").pop()),
      ];
      const found = candidates.find((c) => statSync(c, { throwIfNoEntry: false })?.isFile());
      if (found) expected = JSON.parse(readFileSync(found, "utf8"));
    }
    out.push({ scenario, expected });
  }
  return out;
}

/** Runs every scenario at `level`, without and with a lock; one row per judged call. */
export async function runScenarios(scenarios, level, { home } = {}) {
  const rows = [];
  for (const { scenario, expected } of scenarios) {
    const plan = planScenario(scenario, expected);
    for (const locked of [false, true]) {
      const setup = locked ? "lock" : "no lock";
      const category = `${scenario.name} (${setup})`;
      if (!plan.applicable) {
        rows.push({
          id: scenario.name,
          category,
          level,
          setup,
          expected: "block",
          score: "not-applicable",
          note: plan.reason,
        });
        continue;
      }
      const outcome = await runSession({
        level,
        rules: plan.rules,
        steps: plan.steps,
        approveFirst: locked,
        approveRules: plan.baseline,
        home,
      });
      for (const row of scoreScenario(scenario.name, plan, outcome, didReach))
        rows.push({ ...row, category, level, setup });
    }
  }
  return rows;
}

async function main() {
  const program = new Command("mcp-adversarial-suite")
    .requiredOption(
      "--suite <path>",
      "a checkout of mcp-adversarial-suite, or a folder of its scenario files",
    )
    .addOption(new Option("--level <level...>", "levels to run (default: all)").choices(LEVELS))
    .option("--home <dir>", "what ~ means to the relay", "/home/user")
    .option("--json <file>", "also write every row as JSON")
    .option("--cases", "print one line per call");
  // Bad options are exit 2, as everywhere in effectgate; commander has said what was wrong.
  program.exitOverride();
  try {
    program.parse();
  } catch (e) {
    process.exit(e.exitCode === 0 ? 0 : 2);
  }
  const opts = program.opts();
  if (!statSync(opts.suite, { throwIfNoEntry: false })?.isDirectory())
    throw new Error(`--suite: expected a folder (a checkout of mcp-adversarial-suite), got ${opts.suite}`);
  const scenarios = readScenarios(opts.suite);
  if (scenarios.length === 0)
    throw new Error(`${opts.suite}: expected scenario files (scenarios/*.yaml), got none`);
  const rows = [];
  for (const level of opts.level ?? LEVELS)
    rows.push(...(await runScenarios(scenarios, level, { home: opts.home })));
  printTable(rows, { perCase: opts.cases === true });
  // A scenario is contained when none of its harmful calls (or spoofed answers) got through.
  for (const level of [...new Set(rows.map((r) => r.level))])
    for (const setup of ["no lock", "lock"]) {
      const mine = rows.filter((r) => r.level === level && r.setup === setup);
      const names = [...new Set(mine.map((r) => r.category))];
      const held = names.filter((n) => {
        const t = tally(mine.filter((r) => r.category === n));
        return t.attacks > 0 && t.contained === t.attacks;
      });
      const withAttacks = names.filter((n) => tally(mine.filter((r) => r.category === n)).attacks > 0);
      process.stdout.write(`${level}, ${setup}: scenarios contained ${held.length}/${withAttacks.length}\n`);
    }
  if (opts.json) writeFileSync(opts.json, JSON.stringify(rows, null, 2) + "\n");
}

if (process.argv[1] === import.meta.filename) {
  main().catch((e) => {
    process.stderr.write(`mcp-adversarial-suite: ${e.message}\n`);
    process.exit(2);
  });
}
