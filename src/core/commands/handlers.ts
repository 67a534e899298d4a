import type { Handler, ProgramEntry } from "../policy/catalogue.js";
import type { Arg, Run } from "./api.js";
import { applyEntry } from "./apply.js";
import { dns } from "./handlers-dns.js";
import { dd, gitConfig, tar } from "./handlers-files.js";
import { curl, wget } from "./handlers-http.js";
import { netcat, remoteCopy, socat, ssh } from "./handlers-remote.js";
import { env, find, shell, xargs } from "./handlers-run.js";
import { awk, sed } from "./handlers-scripts.js";
import { opener, server } from "./handlers-view.js";

/**
 * Programs whose words are not options and operands: their grammar, read here. Each handler
 * reads what it knows and calls `run.unknown` for anything else, so that a word it cannot place
 * makes the command unknown rather than harmless.
 */

export const HANDLERS: Record<Handler, (run: Run, args: readonly Arg[], entry: ProgramEntry) => void> = {
  shell,
  sed,
  awk,
  find,
  xargs,
  "git-config": gitConfig,
  dd,
  tar,
  curl,
  wget,
  "remote-copy": remoteCopy,
  ssh,
  netcat,
  socat,
  env: (run, args) => env(run, args),
  dns,
  opener,
  server,
};

/** For a program the catalogue lists with subcommands but reads partly by handler (tests). */
export { applyEntry };
