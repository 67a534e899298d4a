// `effectgate eval`: attack recall of a policy over the scenario corpus, and its false positives
// over recorded benign sessions. Reading files and the policy happens here; the counting is in
// src/core/evaluation/.
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { basename, join } from "node:path";
import { fileURLToPath } from "node:url";
import { LineCounter, parseDocument } from "yaml";
import { ConfigError, EXIT, UsageError, type ConfigProblem } from "../core/errors.js";
import { createSessionJudge } from "../core/judge/session.js";
import type { CompiledPolicy, JudgeEnvironment } from "../core/policy/api.js";
import type { PlatformProfile } from "../core/paths/api.js";
import { evaluateBenign, type BenignReport, type BenignSession } from "../core/evaluation/benign.js";
import { parseExcludeFile } from "../core/evaluation/exclude.js";
import { inferHome } from "../core/evaluation/home.js";
import { mapResolver, syntheticProfile } from "../core/evaluation/machine.js";
import { evaluateAttacks, type RecallReport } from "../core/evaluation/recall.js";
import { formatBenign, formatRecall } from "../core/evaluation/report.js";
import { Scenario } from "../core/evaluation/scenario.js";
import { terminalSafeJson } from "../core/replay/escape.js";
import { listLogs, readLogFile } from "../log/reader.js";
import { readPolicy } from "../relay/policy-file.js";
import { HELP, parseEvalArgs } from "../core/evaluation/options.js";

/** Progress lines on a terminal's stderr from this many log files on. */
const PROGRESS_FROM = 20;
const CORPUS = fileURLToPath(new URL("../../corpus/", import.meta.url));

/** Policies compiled once per machine profile: patterns depend on home and platform. */
function policyCache(spec: string | undefined): (profile: PlatformProfile) => CompiledPolicy {
  const cache = new Map<string, CompiledPolicy>();
  return (profile) => {
    const key = JSON.stringify([profile.platform, profile.home, profile.cwd, profile.env]);
    let p = cache.get(key);
    if (!p) {
      p = readPolicy(spec, profile);
      cache.set(key, p);
    }
    return p;
  };
}

function lineOf(text: string, path: readonly PropertyKey[]): number | undefined {
  const counter = new LineCounter();
  const doc = parseDocument(text, { lineCounter: counter });
  for (let n = path.length; n >= 0; n--) {
    const node = doc.getIn(path.slice(0, n) as unknown[], true) as
      { range?: [number, number, number] } | undefined;
    if (node && typeof node === "object" && node.range) return counter.linePos(node.range[0]).line;
  }
  return undefined;
}

export function loadScenarios(dir: string): Scenario[] {
  let names: string[];
  try {
    names = readdirSync(dir)
      .filter((n) => /\.(ya?ml|json)$/.test(n) && !n.startsWith("."))
      .sort();
  } catch {
    throw new UsageError(
      `eval: --attack expected a folder of scenario files, got "${dir}", which cannot be read`,
    );
  }
  const problems: ConfigProblem[] = [];
  const out: Scenario[] = [];
  const seen = new Map<string, string>();
  for (const name of names) {
    const file = join(dir, name);
    const text = readFileSync(file, "utf8");
    const doc = parseDocument(text, { uniqueKeys: true, prettyErrors: false });
    if (doc.errors.length > 0) {
      const e = doc.errors[0];
      problems.push({
        file,
        ...(e?.linePos?.[0] ? { line: e.linePos[0].line } : {}),
        key: "(document)",
        expected: "valid YAML or JSON",
        got: e?.message.split("\n")[0] ?? "a parse error",
      });
      continue;
    }
    const parsed = Scenario.safeParse(doc.toJS());
    if (!parsed.success) {
      for (const issue of parsed.error.issues.slice(0, 5)) {
        const line = lineOf(text, issue.path);
        problems.push({
          file,
          ...(line !== undefined ? { line } : {}),
          key: issue.path.join(".") || "(scenario)",
          expected: "a valid scenario",
          got: issue.message,
        });
      }
      continue;
    }
    const prior = seen.get(parsed.data.id);
    if (prior !== undefined)
      problems.push({
        file,
        key: "id",
        expected: "an id no other scenario uses",
        got: `${parsed.data.id}, also in ${prior}`,
      });
    seen.set(parsed.data.id, name);
    out.push(parsed.data);
  }
  if (problems.length > 0) throw new ConfigError(problems);
  return out;
}

function readBenign(path: string, progress: boolean): BenignSession[] {
  const files = listLogs(path);
  if (files === undefined)
    throw new UsageError(`eval: --benign expected a log file or folder, got "${path}", which does not exist`);
  const show = progress && files.length >= PROGRESS_FROM;
  return files.map((file, i) => {
    if (show) process.stderr.write(`\reval: reading logs ${i + 1}/${files.length}`);
    const entries = readLogFile(file);
    if (show && i === files.length - 1) process.stderr.write("\n");
    return { file: basename(file), entries };
  });
}

export async function run(args: string[]): Promise<number> {
  const opts = parseEvalArgs(args);
  if (opts.help) {
    process.stdout.write(HELP);
    return EXIT.ok;
  }
  const runBoth = opts.attack === undefined && opts.benign === undefined;
  const attackDir = opts.attack ?? (runBoth ? join(CORPUS, "attack") : undefined);
  const benignPath = opts.benign ?? (runBoth ? join(CORPUS, "benign") : undefined);
  const policyFor = policyCache(opts.policy);
  const makeJudge = (env: JudgeEnvironment) => createSessionJudge(policyFor(env.profile), env);
  const policyName = opts.policy ?? "default";

  const exclude = new Map<string, string>();
  const excludeFile =
    opts.excludeFile ??
    (benignPath && isDir(benignPath) && existsSync(join(benignPath, "excluded-sessions.txt"))
      ? join(benignPath, "excluded-sessions.txt")
      : undefined);
  if (excludeFile !== undefined) {
    let text: string;
    try {
      text = readFileSync(excludeFile, "utf8");
    } catch {
      throw new UsageError(`eval: --exclude-file expected a readable file, got "${excludeFile}"`);
    }
    for (const [id, why] of parseExcludeFile(text, excludeFile)) exclude.set(id, why);
  }
  for (const id of opts.exclude) exclude.set(id, "excluded on the command line");

  let attack: RecallReport | undefined;
  let benign: BenignReport | undefined;
  if (attackDir !== undefined) attack = evaluateAttacks(loadScenarios(attackDir), makeJudge);
  if (benignPath !== undefined) {
    const sessions = readBenign(benignPath, process.stderr.isTTY === true);
    benign = evaluateBenign(
      sessions,
      makeJudge,
      (h) => {
        const profile = syntheticProfile(h.platform, inferHome(h.platform, h.cwd), h.cwd);
        return {
          profile,
          resolver: mapResolver(h.platform, undefined),
          ...(h.name !== null ? { server: h.name } : {}),
        };
      },
      exclude,
    );
  }

  const failures: string[] = [];
  if (opts.minRecall !== undefined && attack) {
    const r = attack.perLevel.enforce.recall;
    if (r === null || r < opts.minRecall)
      failures.push(
        `recall at enforce ${r === null ? "n/a" : r.toFixed(3)} is below --min-recall ${opts.minRecall}`,
      );
  }
  if (opts.maxBlocksPerWeek !== undefined && benign) {
    const rate = benign.enforce;
    if (!rate.ok)
      failures.push(`--max-blocks-per-week ${opts.maxBlocksPerWeek} cannot be checked: ${rate.why}`);
    else if (rate.perWeek > opts.maxBlocksPerWeek)
      failures.push(
        `blocks per week at enforce ${rate.perWeek.toFixed(1)} is above --max-blocks-per-week ${opts.maxBlocksPerWeek}`,
      );
  }

  if (opts.json) {
    process.stdout.write(
      `${terminalSafeJson({ policy: policyName, attack: attack ?? null, benign: benign ?? null, failures })}\n`,
    );
  } else {
    const lines: string[] = [];
    if (attack) lines.push(...formatRecall(attack, policyName));
    if (benign) lines.push(...(attack ? [""] : []), ...formatBenign(benign, policyName));
    for (const f of failures) lines.push(`threshold missed: ${f}`);
    process.stdout.write(`${lines.join("\n")}\n`);
  }
  return failures.length > 0 ? EXIT.finding : EXIT.ok;
}

function isDir(p: string): boolean {
  try {
    return statSync(p).isDirectory();
  } catch {
    return false;
  }
}
