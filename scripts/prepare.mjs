// npm's `prepare` step: build dist/ so that a fresh clone installs and packs a working package.
//
// npm runs it after `npm ci` and `npm install` in the clone, before `npm pack`, and when the
// clone is installed globally (`npm install -g .`). That last one links the folder and installs
// nothing into it, so on a fresh clone neither the compiler nor the runtime dependencies are
// there. In that one case the locked dependencies are installed first, exactly as `npm ci`
// would, without scripts (this step is itself a script). See docs/decisions/0084.
import { execFileSync } from "node:child_process";
import { existsSync, rmSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const npm = process.platform === "win32" ? "npm.cmd" : "npm";

/** The global install's settings would make the inner install global too; it is this folder's. */
function localEnv() {
  const env = { ...process.env };
  for (const key of Object.keys(env))
    if (/^npm_config_(global|prefix|global_prefix|local_prefix|location)$/i.test(key)) delete env[key];
  return env;
}

const run = (args) =>
  execFileSync(npm, args, {
    cwd: root,
    env: localEnv(),
    // stderr only: `npm pack --json` prints its JSON on stdout.
    stdio: ["ignore", 2, 2],
    shell: process.platform === "win32",
  });

if (!existsSync(join(root, "node_modules", "typescript", "package.json"))) {
  process.stderr.write("effectgate: installing the locked dependencies to build dist/ (npm ci)\n");
  run(["ci", "--ignore-scripts", "--no-audit", "--no-fund"]);
}
// A clean dist/: files left by a source that moved or was removed must not be packed.
rmSync(join(root, "dist"), { recursive: true, force: true });
rmSync(join(root, "build"), { recursive: true, force: true });
run(["run", "build"]);
