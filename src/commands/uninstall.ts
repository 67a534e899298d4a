// effectgate uninstall: give every wrapped server its original command line back.
import { resolve } from "node:path";
import { parseOptions, projectOption } from "../clients/cli-options.js";
import { currentLauncher } from "../clients/launcher.js";
import { memosPath } from "../clients/memos.js";
import { clientNames, runPlans, selectClients } from "../clients/session.js";
import { machineFacts } from "../platform/client-paths.js";

const HELP = `usage: effectgate uninstall [--dry-run] [--client NAME[,NAME...]]... [--project DIR]
Restores each wrapped server to its original command (the words after --). Needs no backup.
`;

export async function run(args: string[]): Promise<number> {
  if (args.includes("--help") || args.includes("-h")) {
    process.stdout.write(HELP);
    return 0;
  }
  const o = parseOptions("uninstall", args, {
    flags: ["--dry-run"],
    values: ["--client", "--project"],
    repeatable: ["--client"],
  });
  const projectDir = projectOption("uninstall", o) ?? resolve(process.cwd());
  const result = runPlans({
    facts: machineFacts(),
    projectDir,
    clients: selectClients(o.values.get("--client") ?? []),
    asked: clientNames(o.values.get("--client") ?? []),
    memosPath: memosPath(),
    mode: { kind: "uninstall" },
    knownMains: currentLauncher().knownMains,
    dryRun: o.flags.has("--dry-run"),
    now: new Date(),
    out: (s) => process.stdout.write(s),
  });
  return result.failed > 0 ? 1 : 0;
}
