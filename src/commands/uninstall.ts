// effectgate uninstall: give every wrapped server its original command line back.
import { resolve } from "node:path";
import { currentLauncher } from "../clients/launcher.js";
import { memosPath } from "../clients/memos.js";
import { clientNames as namesAsked, runPlans, selectClients } from "../clients/session.js";
import { unwrapMemosPath } from "../clients/unwrap-memos.js";
import { machineFacts } from "../platform/client-paths.js";
import { clientOption } from "./cli/client-option.js";
import type { CommandDeclaration } from "./cli/declaration.js";
import { dryRunOption, projectOption } from "./cli/values.js";

interface Options {
  dryRun: boolean;
  client: string[];
  project?: string;
}

export const command: CommandDeclaration = {
  description:
    "Give every wrapped server its original command back: the words after --. No backup is " +
    "needed. Exit 1 when a config could not be changed.",
  options: [dryRunOption, clientOption, projectOption],
  examples: [
    { command: "effectgate uninstall --dry-run", says: "see which servers would be unwrapped" },
    { command: "effectgate uninstall --client cursor", says: "unwrap one client's servers" },
  ],
  run: (parsed) => uninstall(parsed.options as unknown as Options),
};

async function uninstall(o: Options): Promise<number> {
  const projectDir = o.project ?? resolve(process.cwd());
  const result = runPlans({
    facts: machineFacts(),
    projectDir,
    clients: selectClients(o.client),
    asked: namesAsked(o.client),
    memosPath: memosPath(),
    unwrapMemosPath: unwrapMemosPath(),
    mode: { kind: "uninstall" },
    knownMains: currentLauncher().knownMains,
    dryRun: o.dryRun,
    out: (s) => process.stdout.write(s),
  });
  return result.failed > 0 ? 1 : 0;
}
