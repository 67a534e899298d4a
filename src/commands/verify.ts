// effectgate verify: compare every client config with the recorded baseline (exit 1 on drift),
// or record a new baseline with --write.
import { resolve } from "node:path";
import { makeBaseline } from "../clients/baseline.js";
import { baselinePath } from "../clients/baseline-file.js";
import { readBaselineFile, writeBaselineFile } from "./baseline-input.js";
import { parseOptions, projectOption, single } from "../clients/cli-options.js";
import { diffBaseline, formatDrift, loudLines } from "../clients/drift.js";
import { currentLauncher } from "../clients/launcher.js";
import { snapshot } from "../clients/snapshot.js";
import { machineFacts } from "../platform/client-paths.js";
import { isOffValue } from "../relay/gates/off-switch.js";

const HELP = `usage: effectgate verify [--write] [--baseline FILE] [--project DIR]
Compares the MCP server declarations of every client config with the baseline
(default $EFFECTGATE_HOME/configs.lock). Exit 1 on drift, 78 if the baseline is missing,
unreadable (a folder, no permission) or invalid.
--write records the current declarations (env and header names only, never values).
`;

export async function run(args: string[]): Promise<number> {
  if (args.includes("--help") || args.includes("-h")) {
    process.stdout.write(HELP);
    return 0;
  }
  const o = parseOptions("verify", args, {
    flags: ["--write"],
    values: ["--baseline", "--project"],
    repeatable: [],
  });
  const path = baselinePath(single(o, "--baseline"));
  const { knownMains } = currentLauncher();
  const self = knownMains[0] ?? "?";
  const facts = machineFacts();
  const projectFlag = projectOption("verify", o);
  if (o.flags.has("--write")) {
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
  const drift = diffBaseline(baseline, snapshot(facts, project, knownMains, isOffValue), self);
  process.stdout.write(formatDrift(drift));
  return drift.length > 0 ? 1 : 0;
}
