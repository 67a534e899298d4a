// effectgate watch: report config drift against the baseline as it happens, until SIGINT/SIGTERM.
import { statSync } from "node:fs";
import { dirname, sep } from "node:path";
import { watch } from "chokidar";
import { baselinePath } from "../clients/baseline-file.js";
import { readBaselineFile } from "./baseline-input.js";
import { diffBaseline, formatDrift } from "../clients/drift.js";
import { loadUnwrapMemos, unwrapMemosPath, unwrappedOnPurpose } from "../clients/unwrap-memos.js";
import { currentLauncher } from "../clients/launcher.js";
import { snapshot, watchTargets } from "../clients/snapshot.js";
import { machineFacts } from "../platform/client-paths.js";
import { isOffValue } from "../relay/gates/off-switch.js";
import type { CommandDeclaration } from "./cli/declaration.js";
import { baselineOption } from "./cli/values.js";

export const command: CommandDeclaration = {
  description:
    "Watch every client config folder and print drift against the baseline as it happens, " +
    "until interrupted (Ctrl-C). Exit 78 if the baseline is missing or invalid.",
  options: [baselineOption],
  examples: [{ command: "effectgate watch", says: "keep a terminal open that reports config changes" }],
  run: (parsed) => watchConfigs(parsed.options.baseline as string | undefined),
};

const DEBOUNCE_MS = 300;
/** A client writing its file may leave it half-written for a moment; look again before calling it broken. */
const REREAD_MS = 400;
const REREAD_TRIES = 4;

/** The folder itself when it exists, else its nearest existing ancestor (where it will appear). */
function nearestExisting(dir: string): string | undefined {
  for (let d = dir; ; d = dirname(d)) {
    try {
      if (statSync(d).isDirectory()) return d;
    } catch {
      // not there (yet): look one level up
    }
    if (dirname(d) === d) return undefined;
  }
}

async function watchConfigs(baselineFlag: string | undefined): Promise<number> {
  const path = baselinePath(baselineFlag);
  const baseline = readBaselineFile(path);
  const facts = machineFacts();
  const { knownMains } = currentLauncher();

  let candidates = new Set<string>();
  const watched = new Set<string>();
  /** Recomputes what to watch: folders created since (a new `.cursor/`, a new Continue block
   *  file, a new VS Code profile) are added. Returns the new folders to watch and whether a
   *  config path was added. */
  const refresh = (): { roots: string[]; grew: boolean } => {
    const t = watchTargets(facts, baseline.project);
    const files = new Set([...t.files, ...baseline.files.map((f) => f.path)]);
    const grew = [...files].some((f) => !candidates.has(f));
    candidates = files;
    const dirs = [...t.dirs, ...baseline.files.map((f) => dirname(f.path))];
    const roots = [...new Set(dirs.map(nearestExisting))].filter(
      (d): d is string => d !== undefined && !watched.has(d),
    );
    for (const d of roots) watched.add(d);
    return { roots, grew };
  };

  let last = "";
  let timer: NodeJS.Timeout | undefined;
  let tries = 0;
  const check = () => {
    timer = undefined;
    const current = snapshot(facts, baseline.project, knownMains, isOffValue);
    if (current.some((f) => f.error !== undefined) && tries < REREAD_TRIES) {
      tries++;
      timer = setTimeout(check, REREAD_MS);
      return;
    }
    tries = 0;
    // Read again at every check: an uninstall run while watching records what it unwrapped.
    const onPurpose = unwrappedOnPurpose(loadUnwrapMemos(unwrapMemosPath()));
    const text = formatDrift(diffBaseline(baseline, current, knownMains[0] ?? "?", onPurpose));
    if (text === last) return;
    last = text;
    process.stdout.write(`[${new Date().toISOString()}]\n${text}`);
  };
  const schedule = () => {
    if (timer) clearTimeout(timer);
    tries = 0;
    timer = setTimeout(check, DEBOUNCE_MS);
  };

  const watcher = watch(refresh().roots, { depth: 0, ignoreInitial: true, atomic: false });
  watcher.on("all", (_event, changed) => {
    const { roots, grew } = refresh();
    if (roots.length > 0) watcher.add(roots);
    // A new folder may already hold its config (mkdir -p && write): the check reads from disk.
    // A config folder removed or renamed as a whole may report only the folder itself.
    const holdsConfig = [...candidates].some((c) => c.startsWith(changed + sep));
    if (roots.length > 0 || grew || candidates.has(changed) || holdsConfig) schedule();
  });
  await new Promise<void>((ready) => watcher.once("ready", () => ready()));
  process.stdout.write(
    `watching ${candidates.size} config path(s) in ${watched.size} folder(s) against ${path}\n`,
  );
  check();

  await new Promise<void>((done) => {
    const stop = () => done();
    process.once("SIGINT", stop);
    process.once("SIGTERM", stop);
  });
  if (timer) clearTimeout(timer);
  await watcher.close();
  return 0;
}
