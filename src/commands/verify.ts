// effectgate verify: compare every client config with the recorded baseline (exit 1 on drift),
// or record a new baseline with --write.
import { resolve } from "node:path";
import { makeBaseline } from "../clients/baseline.js";
import { baselinePath } from "../clients/baseline-file.js";
import { readBaselineFile, writeBaselineFile } from "./baseline-input.js";
import { alarms, diffBaseline, formatDrift, loudLines } from "../clients/drift.js";
import { loadUnwrapMemos, unwrapMemosPath, unwrappedOnPurpose } from "../clients/unwrap-memos.js";
import { currentLauncher } from "../clients/launcher.js";
import { snapshot } from "../clients/snapshot.js";
import { machineFacts } from "../platform/client-paths.js";
import { isOffValue } from "../relay/gates/off-switch.js";
import { clientNames } from "./cli/client-option.js";
import type { CommandDeclaration } from "./cli/declaration.js";
import { baselineOption, projectOption } from "./cli/values.js";

interface Options {
  write: boolean;
  baseline?: string;
  project?: string;
}

export const command: CommandDeclaration = {
  description:
    "Compare the MCP server declarations of every client config with the baseline. Exit 1 on " +
    "drift, 78 if the baseline is missing, unreadable (a folder, no permission) or invalid. " +
    `--write records the current declarations (env and header names only, never values).\n\nClients: ${clientNames()}.`,
  options: [
    {
      flags: "--write",
      meaning: "record the current declarations as the baseline instead of comparing",
      default: "off",
    },
    baselineOption,
    { ...projectOption, default: "the folder recorded in the baseline; with --write, the current folder" },
  ],
  examples: [
    { command: "effectgate verify --write", says: "record the baseline once, after install" },
    { command: "effectgate verify", says: "later: what changed in any client config (exit 1 on drift)" },
  ],
  run: (parsed) => verify(parsed.options as unknown as Options),
};

async function verify(o: Options): Promise<number> {
  const path = baselinePath(o.baseline);
  const { knownMains } = currentLauncher();
  const self = knownMains[0] ?? "?";
  const facts = machineFacts();
  const projectFlag = o.project;
  if (o.write) {
    const project = projectFlag ?? resolve(process.cwd());
    const files = snapshot(facts, project, knownMains, isOffValue);
    writeBaselineFile(path, makeBaseline(project, files));
    const servers = files.flatMap((f) => f.servers);
    process.stdout.write(
      `recorded ${servers.length} server(s) in ${files.length} config file(s) to ${path}\n`,
    );
    for (const f of files) {
      if (f.error !== undefined) process.stdout.write(`  ! ${f.path}: ${f.error}\n`);
      for (const s of f.servers) {
        if (s.kind === "remote")
          process.stdout.write(`  ! ${f.path}: ${s.name} is a remote server: UNGUARDED by effectgate\n`);
        else if (s.kind === "stdio" && !s.wrapped && !s.foreign)
          process.stdout.write(`  ! ${f.path}: ${s.name} is not wrapped by effectgate\n`);
        for (const l of loudLines(s, self)) process.stdout.write(`  ! ${f.path}: ${s.name} ${l.text}\n`);
      }
    }
    return 0;
  }
  const baseline = readBaselineFile(path);
  // The project recorded with the baseline, so that verify from another folder compares like with like.
  const project = projectFlag ?? baseline.project;
  const onPurpose = unwrappedOnPurpose(loadUnwrapMemos(unwrapMemosPath()));
  const drift = diffBaseline(baseline, snapshot(facts, project, knownMains, isOffValue), self, onPurpose);
  process.stdout.write(formatDrift(drift));
  return alarms(drift).length > 0 ? 1 : 0;
}
