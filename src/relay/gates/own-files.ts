// The files and folders the running effectgate uses, as the judge must protect them: by their
// real paths and, for files, by device and inode (docs/decisions/0068-own-files-by-identity.md).
import { dirname, join, resolve } from "node:path";
import type { PathResolver } from "../../core/paths/api.js";
import type { OwnPath } from "../../core/paths/own-paths.js";
import { effectgateHome } from "../../platform/home.js";
import { fileIdentity } from "../../platform/resolver.js";
import { DEFAULT_POLICY_PATH } from "../../config/default-policy.js";

export interface OwnFileOptions {
  /** `--policy`: a file path, or undefined / `default` for the shipped policy. */
  policy?: string;
  /** `--lock`. */
  lock?: string;
  /** `--log-dir`, else the sessions folder under EFFECTGATE_HOME. */
  logDir?: string;
  env: NodeJS.ProcessEnv;
  /** The folder relative `--policy`, `--lock` and `--log-dir` values are read from. */
  cwd: string;
  /** The project's grant file (decision 0134); its folder is guarded. */
  grantFile?: string;
}

function entry(what: string, path: string, folder: boolean, resolver: PathResolver): OwnPath {
  const real = resolver.realpath(path);
  const id = folder ? undefined : fileIdentity(path);
  return {
    what,
    path,
    folder,
    ...(real !== undefined && real !== path ? { real } : {}),
    ...(id !== undefined ? { id } : {}),
  };
}

/**
 * The paths this effectgate process reads and writes: the policy in force, the lock, its home
 * (shared taint, baselines, sessions), the session log folder and the taint folder. Every effect
 * on them is denied (JudgeEnvironment.own). The installed program is guarded by the default
 * policy's node_modules/effectgate pattern; guarding the running package's folder itself would
 * refuse every write of a developer whose project is a clone of effectgate.
 */
export function ownFiles(opts: OwnFileOptions, resolver: PathResolver): OwnPath[] {
  const home = resolve(opts.cwd, effectgateHome(opts.env));
  const out: OwnPath[] = [];
  if (opts.policy !== undefined && opts.policy !== "default" && opts.policy.trim() !== "")
    out.push(entry("the policy in force (--policy)", resolve(opts.cwd, opts.policy), false, resolver));
  // The shipped default is public (it may be read), but an edited copy in force would be obeyed.
  else
    out.push({
      ...entry("the policy in force (the built-in default)", DEFAULT_POLICY_PATH, false, resolver),
      readable: true,
    });
  if (opts.lock !== undefined)
    out.push(entry("the pin lock (--lock)", resolve(opts.cwd, opts.lock), false, resolver));
  out.push(entry("effectgate's home folder (EFFECTGATE_HOME)", home, true, resolver));
  out.push(
    entry(
      "the session log folder (--log-dir)",
      opts.logDir !== undefined ? resolve(opts.cwd, opts.logDir) : join(home, "sessions"),
      true,
      resolver,
    ),
  );
  out.push(entry("the shared taint folder", join(home, "taint"), true, resolver));
  // The grants decide what is allowed unasked, so the model may not write them, even under a
  // user's policy without the `**/.effectgate/**` deny. Reading them shows only what the user
  // allowed, and a project's files are read whole (grep -r, git add), so reads stay allowed; a
  // command over the whole project (chmod -R .) is judged by the policy, as before (0134).
  if (opts.grantFile !== undefined)
    out.push({
      ...entry(
        "the project's grant folder (.effectgate/allow.yaml)",
        dirname(opts.grantFile),
        true,
        resolver,
      ),
      readable: true,
      notAsHeld: true,
    });
  return out;
}
