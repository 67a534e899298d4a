// effectgate install: wrap every stdio server in the discovered client configs.
import { parseLevel } from "../core/gate/levels.js";
import { UsageError } from "../core/errors.js";
import { parseOptions, projectOption, single } from "../clients/cli-options.js";
import { currentLauncher } from "../clients/launcher.js";
import { memosPath } from "../clients/memos.js";
import { clientNames, runPlans, selectClients } from "../clients/session.js";
import { machineFacts } from "../platform/client-paths.js";
import { currentProfile } from "../platform/profile.js";
import { readPolicy } from "../config/policy-file.js";
import { resolve } from "node:path";

const HELP = `usage: effectgate install [--dry-run] [--client NAME[,NAME...]]... [--level L] [--policy P] [--project DIR]
Wraps the stdio MCP servers of client configs so they start through effectgate, each with
--name set to its name in the config. Servers already wrapped get the current launcher and
the --level/--policy given here; their other options are kept.
--level and --policy are written into the configs only when given.
`;

export async function run(args: string[]): Promise<number> {
  if (args.includes("--help") || args.includes("-h")) {
    process.stdout.write(HELP);
    return 0;
  }
  const o = parseOptions("install", args, {
    flags: ["--dry-run"],
    values: ["--client", "--level", "--policy", "--project"],
    repeatable: ["--client"],
  });
  const level = single(o, "--level");
  if (level !== undefined && !parseLevel(level))
    throw new UsageError(
      `install --level: expected observe, enforce or strict, got ${JSON.stringify(level)}`,
    );
  const projectDir = projectOption("install", o) ?? resolve(process.cwd());
  const clients = selectClients(o.values.get("--client") ?? []);
  const given = single(o, "--policy");
  const policy = given === undefined ? undefined : policyArg(given);
  // Loaded exactly as the relay will at every start, so a policy that would stop every wrapped
  // server (exit 78) stops install instead, before anything is written.
  if (policy !== undefined) readPolicy(policy, currentProfile(process.cwd()));
  const { launcher, knownMains } = currentLauncher();
  const result = runPlans({
    facts: machineFacts(),
    projectDir,
    clients,
    asked: clientNames(o.values.get("--client") ?? []),
    memosPath: memosPath(),
    mode: {
      kind: "install",
      launcher,
      flags: { level, policy },
    },
    knownMains,
    dryRun: o.flags.has("--dry-run"),
    now: new Date(),
    out: (s) => process.stdout.write(s),
  });
  if (result.written > 0)
    process.stdout.write(
      "to bypass effectgate for one run set EFFECTGATE_OFF=1; to undo run effectgate uninstall\n",
    );
  return result.failed > 0 ? 1 : 0;
}

/** A policy file is written as an absolute path; the clients start servers from other folders. */
function policyArg(p: string): string {
  return p === "default" ? p : resolve(p);
}
