// effectgate watch: report config drift against the baseline as it happens, until SIGINT/SIGTERM.
import { existsSync } from "node:fs";
import { dirname } from "node:path";
import { watch } from "chokidar";
import { baselinePath, readBaseline } from "../clients/baseline-file.js";
import { parseOptions, single } from "../clients/cli-options.js";
import { diffBaseline, formatDrift } from "../clients/drift.js";
import { currentLauncher } from "../clients/launcher.js";
import { candidatePaths, snapshot } from "../clients/snapshot.js";
import { machineFacts } from "../platform/client-paths.js";

const HELP = `usage: effectgate watch [--baseline FILE]
Watches every client config folder and prints drift against the baseline as it happens.
`;

const DEBOUNCE_MS = 300;
/** A client writing its file may leave it half-written for a moment; look again before calling it broken. */
const REREAD_MS = 400;
const REREAD_TRIES = 4;

export async function run(args: string[]): Promise<number> {
  if (args.includes("--help") || args.includes("-h")) {
    process.stdout.write(HELP);
    return 0;
  }
  const o = parseOptions("watch", args, { flags: [], values: ["--baseline"], repeatable: [] });
  const path = baselinePath(single(o, "--baseline"));
  const baseline = readBaseline(path);
  const facts = machineFacts();
  const { knownMains } = currentLauncher();
  const candidates = new Set([
    ...candidatePaths(facts, baseline.project),
    ...baseline.files.map((f) => f.path),
  ]);
  const dirs = [...new Set([...candidates].map((p) => dirname(p)))].filter((d) => existsSync(d));

  let last = "";
  let timer: NodeJS.Timeout | undefined;
  let tries = 0;
  const check = () => {
    timer = undefined;
    const current = snapshot(facts, baseline.project, knownMains);
    if (current.some((f) => f.error !== undefined) && tries < REREAD_TRIES) {
      tries++;
      timer = setTimeout(check, REREAD_MS);
      return;
    }
    tries = 0;
    const text = formatDrift(diffBaseline(baseline, current));
    if (text === last) return;
    last = text;
    process.stdout.write(`[${new Date().toISOString()}]\n${text}`);
  };
  const schedule = () => {
    if (timer) clearTimeout(timer);
    tries = 0;
    timer = setTimeout(check, DEBOUNCE_MS);
  };

  const watcher = watch(dirs, { depth: 0, ignoreInitial: true, atomic: false });
  watcher.on("all", (_event, changed) => {
    if (candidates.has(changed)) schedule();
  });
  await new Promise<void>((ready) => watcher.once("ready", () => ready()));
  process.stdout.write(
    `watching ${candidates.size} config path(s) in ${dirs.length} folder(s) against ${path}\n`,
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
