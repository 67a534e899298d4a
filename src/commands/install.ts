// effectgate install: wrap every stdio server in the discovered client configs.
import { currentLauncher } from "../clients/launcher.js";
import { memosPath } from "../clients/memos.js";
import { clientNames as namesAsked, runPlans, selectClients } from "../clients/session.js";
import { unwrapMemosPath } from "../clients/unwrap-memos.js";
import { machineFacts } from "../platform/client-paths.js";
import { currentProfile } from "../platform/profile.js";
import { readPolicy } from "../config/policy-file.js";
import { INSTALL_HOW_TO_ENFORCE, observeNotice } from "../core/gate/observe-notice.js";
import { resolve } from "node:path";
import { clientOption } from "./cli/client-option.js";
import type { CommandDeclaration } from "./cli/declaration.js";
import { dryRunOption, levelOption, policyOption, projectOption } from "./cli/values.js";

interface Options {
  dryRun: boolean;
  remote: boolean;
  client: string[];
  level?: string;
  policy?: string;
  project?: string;
}

export const command: CommandDeclaration = {
  description:
    "Wrap the stdio MCP servers of client configs so that they start through effectgate, each " +
    "with --name set to its name in the config. Servers already wrapped get the current " +
    "launcher and the --level and --policy given here; their other options are kept. --level " +
    "and --policy are written into the configs only when given. With --remote, remote (HTTP) " +
    "servers are wrapped too (JSON, TOML and YAML configs), as effectgate --url (docs/remote.md); without it " +
    "they are named as unguarded. Exit 1 when a config could not be changed.",
  options: [
    dryRunOption,
    {
      flags: "--remote",
      meaning:
        "also wrap remote servers as effectgate --url; header values move into their env, and effectgate signs in instead of the client",
      default: "off (remote servers are named as unguarded)",
    },
    clientOption,
    levelOption("none written; the relay then uses the policy's mode, else observe"),
    policyOption(
      "the policy the wrapped servers use: default or a policy file",
      "none written; the relay then uses the shipped one",
    ),
    projectOption,
  ],
  examples: [
    { command: "effectgate install --dry-run", says: "see which servers would be wrapped, in which files" },
    {
      command: "effectgate install --client claude-code,cursor --level enforce",
      says: "wrap two clients' servers, refusing denied calls",
    },
  ],
  run: (parsed) => install(parsed.options as unknown as Options),
};

async function install(o: Options): Promise<number> {
  const level = o.level;
  const projectDir = o.project ?? resolve(process.cwd());
  const clients = selectClients(o.client);
  const given = o.policy;
  const policy = given === undefined ? undefined : policyArg(given);
  // Loaded exactly as the relay will at every start, so a policy that would stop every wrapped
  // server (exit 78) stops install instead, before anything is written. The default too: its
  // mode is the level of every server wrapped without --level.
  const loaded = readPolicy(policy, currentProfile(process.cwd()));
  // What the servers wrapped now will run at: the flag, else the policy's mode, as the relay decides.
  const effective = level ?? loaded.mode ?? "observe";
  const { launcher, knownMains } = currentLauncher();
  const result = runPlans({
    facts: machineFacts(),
    projectDir,
    clients,
    asked: namesAsked(o.client),
    memosPath: memosPath(),
    unwrapMemosPath: unwrapMemosPath(),
    mode: {
      kind: "install",
      launcher,
      flags: { level, policy },
      remote: o.remote,
    },
    knownMains,
    dryRun: o.dryRun,
    out: (s) => process.stdout.write(s),
  });
  const wrapped = result.plans.some(
    (p) => p.newText !== undefined && p.actions.some((a) => a.action === "wrap"),
  );
  if (result.written > 0 && wrapped && effective === "observe")
    for (const line of observeNotice(INSTALL_HOW_TO_ENFORCE)) process.stdout.write(`${line}\n`);
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
