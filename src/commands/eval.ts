// `effectgate eval`: attack recall of a policy over the scenario corpus, and its false positives
// over recorded benign sessions. Reading files and the policy happens here; the counting is in
// src/core/evaluation/.
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { basename, isAbsolute, join } from "node:path";
import { ConfigError, EXIT, UsageError, type ConfigProblem } from "../core/errors.js";
import { loadedShellKit, loadShellKit } from "../config/shell-kit.js";
import { createSessionJudge } from "../core/judge/session.js";
import type { CompiledPolicy, JudgeEnvironment } from "../core/policy/api.js";
import type { PlatformProfile } from "../core/paths/api.js";
import { evaluateBenign, type BenignReport, type BenignSession } from "../core/evaluation/benign.js";
import { parseExcludeFile } from "../core/evaluation/exclude.js";
import { evaluateAttacks, type RecallReport } from "../core/evaluation/recall.js";
import { formatBenign, formatRecall } from "../core/evaluation/report.js";
import { thresholdFailures } from "../core/evaluation/thresholds.js";
import type { Scenario } from "../core/evaluation/scenario.js";
import { parseScenarioFile } from "../core/evaluation/scenario-file.js";
import { escapeForTerminal, terminalSafeJson } from "../core/replay/escape.js";
import { listLogs, tryReadLogFile } from "../log/reader.js";
import { benignEnvironment, thisPlatform } from "./benign-environment.js";
import { progressLine } from "./progress.js";
import { readPolicy } from "../config/policy-file.js";
import { parseCount, parseFraction } from "../core/evaluation/options.js";
import type { CommandDeclaration } from "./cli/declaration.js";
import { policyOption } from "./cli/values.js";
import { packagePath } from "../package-dir.js";

const CORPUS = packagePath("corpus");

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

export function loadScenarios(dir: string): Scenario[] {
  if (!isDir(dir)) {
    const why = existsSync(dir) ? "which is not a folder" : "which does not exist";
    throw new UsageError(`--attack: expected a folder of scenario files, got "${dir}", ${why}`);
  }
  let names: string[];
  try {
    names = readdirSync(dir)
      .filter((n) => /\.(ya?ml|json)$/.test(n) && !n.startsWith("."))
      .sort();
  } catch {
    throw new UsageError(`--attack: expected a readable folder of scenario files, got "${dir}"`);
  }
  const problems: ConfigProblem[] = [];
  const out: Scenario[] = [];
  const seen = new Map<string, string>();
  for (const name of names) {
    const file = join(dir, name);
    let text: string;
    try {
      text = readFileSync(file, "utf8");
    } catch {
      problems.push({ file, key: "(document)", expected: "a readable file", got: "an unreadable one" });
      continue;
    }
    const parsed = parseScenarioFile(text, file);
    if (!parsed.ok) {
      problems.push(...parsed.problems);
      continue;
    }
    const { id } = parsed.scenario;
    const prior = seen.get(id);
    if (prior !== undefined)
      problems.push({
        file,
        line: parsed.idLine,
        key: "id",
        expected: "an id no other scenario uses",
        got: `${id}, also in ${prior}`,
      });
    seen.set(id, name);
    out.push(parsed.scenario);
  }
  if (problems.length > 0) throw new ConfigError(problems);
  return out;
}

/** A benign log that could not be read: it is reported and skipped, and eval exits 1. */
interface UnreadableLog {
  file: string;
  why: string;
}

function readBenign(path: string): { sessions: BenignSession[]; unreadable: UnreadableLog[] } {
  const listing = listLogs(path);
  if (listing.kind === "missing")
    throw new UsageError(`--benign: expected a log file or folder, got "${path}", which does not exist`);
  if (listing.kind === "unreadable")
    throw new UsageError(`--benign: expected a readable log file or folder, got "${path}": ${listing.why}`);
  const files = listing.files;
  const progress = progressLine(process.stderr, "reading logs");
  const sessions: BenignSession[] = [];
  const unreadable: UnreadableLog[] = [];
  files.forEach((file, i) => {
    progress.set(i, files.length);
    const got = tryReadLogFile(file);
    if (got.ok) return void sessions.push({ file: basename(file), entries: got.lines });
    // The one file named is the whole input: a usage error, as for a missing one.
    if (listing.kind === "file")
      throw new UsageError(`--benign: expected a readable log file, got "${path}": ${got.why}`);
    unreadable.push({ file: basename(file), why: got.why });
    process.stderr.write(
      `effectgate: eval: skipped ${terminalSafeJson(file)}: expected a readable session log, got ${escapeForTerminal(got.why)}\n`,
    );
  });
  progress.end();
  return { sessions, unreadable };
}

interface Options {
  attack?: string;
  benign?: string;
  policy?: string;
  json: boolean;
  minRecall?: number;
  maxBlocksPerWeek?: number;
  exclude: string[];
  excludeFile: string[];
  home?: string;
}

export const command: CommandDeclaration = {
  description:
    "Measure a policy: its recall over attack scenarios, per level and category, and its " +
    "false positives over session logs of ordinary work, as blocks per week of active time. " +
    "With neither --attack nor --benign, both shipped corpora are used, and real work " +
    "(corpus/benign/real-work) is reported as its own group, held to no threshold. Exit 1 when a " +
    "threshold is missed or a log could not be read.",
  options: [
    {
      flags: "--attack <dir>",
      meaning: "a folder of attack scenarios (see corpus/attack)",
      default: "the shipped corpus, when --benign is not given either",
    },
    {
      flags: "--benign <path>",
      meaning: "a session log or a folder of them; a folder's excluded-sessions.txt applies",
      default: "the shipped corpus, when --attack is not given either",
    },
    policyOption("the policy to measure: default or a policy file"),
    {
      flags: "--min-recall <ratio>",
      meaning:
        "exit 1 when recall at enforce is below this (0..1 or a percentage like 90%), or when no attack scenario was measured",
      default: "no threshold",
      parse: parseFraction,
    },
    {
      flags: "--max-blocks-per-week <n>",
      meaning: "exit 1 when blocks per week at enforce exceed this, or cannot be said",
      default: "no threshold",
      parse: parseCount,
    },
    {
      flags: "--exclude <id...>",
      meaning: "leave these benign sessions out (an id that names no session is an error)",
      default: "none",
    },
    {
      flags: "--exclude-file <file>",
      meaning: 'also leave out the sessions listed in this file, one "ID  # reason" per line; repeatable',
      default: "none",
      repeatable: true,
    },
    {
      flags: "--home <dir>",
      meaning:
        "the home folder of benign sessions whose working folder is not in one (your own logs: your home)",
      default: "read off each session's working folder, else /home/user",
      parse: (text) => {
        if (!isAbsolute(text))
          throw new UsageError(`expected an absolute folder, got ${JSON.stringify(text)}`);
        return text;
      },
    },
    { flags: "--json", meaning: "one JSON document instead of text", default: "off" },
  ],
  examples: [
    { command: "effectgate eval", says: "the shipped policy over both shipped corpora" },
    {
      command:
        "effectgate eval --policy team.yaml --benign ~/.effectgate/sessions --home ~ --max-blocks-per-week 1",
      says: "your own policy over your own sessions, failing above one block a week",
    },
    {
      command: "effectgate eval --attack corpus/attack --min-recall 90% --json",
      says: "attack recall only, as JSON, failing below 90%",
    },
  ],
  run: (parsed) => evaluate(parsed.options as unknown as Options),
};

async function evaluate(opts: Options): Promise<number> {
  const runBoth = opts.attack === undefined && opts.benign === undefined;
  const attackDir = opts.attack ?? (runBoth ? join(CORPUS, "attack") : undefined);
  const benignPath = opts.benign ?? (runBoth ? join(CORPUS, "benign") : undefined);
  // Commands mined from other people's agent sessions: a second group, measured and shown, but
  // the thresholds hold the shipped sessions only (docs/replay-and-eval.md, "Real work").
  const realWorkPath = runBoth ? join(CORPUS, "benign", "real-work") : undefined;
  const policyFor = policyCache(opts.policy);
  // Commands are judged as the relay judges them: with the bash grammar and the catalogue.
  await loadShellKit();
  const makeJudge = (env: JudgeEnvironment) =>
    createSessionJudge(policyFor(env.profile), { ...env, shell: loadedShellKit });
  const policyName = opts.policy ?? "default";

  // Every list applies: the benign folder's own file (the docs promise it always does), each
  // --exclude-file, then --exclude. A later reason for the same id wins.
  const exclude = new Map<string, string>();
  const folderFile = benignPath === undefined ? undefined : join(benignPath, "excluded-sessions.txt");
  const lists = [
    ...(folderFile !== undefined && isDir(benignPath as string) && existsSync(folderFile)
      ? [folderFile]
      : []),
    ...opts.excludeFile,
  ];
  for (const file of lists) {
    let text: string;
    try {
      text = readFileSync(file, "utf8");
    } catch {
      throw new UsageError(`--exclude-file: expected a readable file, got "${file}"`);
    }
    for (const [id, why] of parseExcludeFile(text, file)) exclude.set(id, why);
  }
  for (const id of opts.exclude) exclude.set(id, "excluded on the command line");

  let attack: RecallReport | undefined;
  let benign: BenignReport | undefined;
  if (attackDir !== undefined) {
    const progress = progressLine(process.stderr, "playing attack scenarios");
    attack = evaluateAttacks(loadScenarios(attackDir), (env) => {
      progress.tick();
      return makeJudge(env);
    });
    progress.end();
  }
  const unreadable: UnreadableLog[] = [];
  const measureBenign = (path: string): BenignReport => {
    const read = readBenign(path);
    unreadable.push(...read.unreadable);
    const progress = progressLine(process.stderr, "judging sessions");
    const report = evaluateBenign(
      read.sessions,
      makeJudge,
      benignEnvironment(opts.home !== undefined ? { platform: thisPlatform(), dir: opts.home } : undefined),
      exclude,
      { progress: (done, of) => progress.set(done, of) },
    );
    progress.end();
    return report;
  };
  if (benignPath !== undefined) benign = measureBenign(benignPath);
  const realWork =
    realWorkPath !== undefined && isDir(realWorkPath) ? measureBenign(realWorkPath) : undefined;

  // An --exclude id that names no session is almost always a typo: the session it meant to
  // leave out is still counted, so say so rather than measure something else.
  const unmatched = opts.exclude.filter(
    (id) => ![benign, realWork].some((b) => b?.excluded.some((e) => e.sid === id)),
  );
  if (unmatched.length > 0)
    throw new UsageError(
      `--exclude: expected ids of sessions in the benign logs, got ${unmatched.map((id) => JSON.stringify(id)).join(", ")}, which ${unmatched.length === 1 ? "names" : "name"} none`,
    );
  const failures = thresholdFailures(opts, attack, benign);

  if (opts.json) {
    process.stdout.write(
      `${terminalSafeJson({ policy: policyName, attack: attack ?? null, benign: benign ?? null, realWork: realWork ?? null, unreadableLogs: unreadable, failures })}\n`,
    );
  } else {
    const lines: string[] = [];
    if (attack) lines.push(...formatRecall(attack, policyName));
    if (benign) lines.push(...(attack ? [""] : []), ...formatBenign(benign, policyName));
    if (realWork)
      lines.push(
        "",
        ...formatBenign(realWork, policyName, "real work (corpus/benign/real-work, no threshold)"),
      );
    for (const u of unreadable)
      lines.push(
        `unreadable benign log skipped: ${escapeForTerminal(u.file)}: expected a readable session log, got ${u.why}`,
      );
    for (const f of failures) lines.push(`threshold missed: ${f}`);
    process.stdout.write(`${lines.join("\n")}\n`);
  }
  // A measurement that left a log out is incomplete, whatever the thresholds say
  // (docs/decisions/0064-unreadable-inputs-and-shared-taint-freshness.md).
  return failures.length > 0 || unreadable.length > 0 ? EXIT.finding : EXIT.ok;
}

function isDir(p: string): boolean {
  try {
    return statSync(p).isDirectory();
  } catch {
    return false;
  }
}
