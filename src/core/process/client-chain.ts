/**
 * Which process is the client that started this relay. A client often starts a server through a
 * launcher: `sh -c`, `npx` (npm exec, then `sh -c`), a `.cmd` shim (cmd.exe /c). Keyed on the
 * direct parent, two relays of one client were two clients, and taint was not shared between
 * them (issue 17). So the chain of ancestors is walked past every launcher to the first process
 * that is not one. Pure: src/platform/client-process.ts reads the chain from the machine.
 */

/** One ancestor, as the machine tells it. */
export interface ProcessFacts {
  pid: number;
  /** Its command line; on Windows only the executable's name is known (`argvKnown` false). */
  argv: readonly string[];
  argvKnown: boolean;
  /** When it started, to tell a recycled pid apart (Linux: ticks since boot; macOS: `ps` lstart). */
  start?: string;
}

/** Shells: a launcher when they run a command (`-c`) or a script, not when they are a terminal's. */
const SHELLS = new Set(["sh", "bash", "dash", "zsh", "ksh", "mksh", "ash", "fish", "busybox", "pwsh"]);
/** Package runners and their scripts, run by node or on their own (npm sets its title `npm exec …`). */
const RUNNERS = /^(?:npx|npm|pnpm|pnpx|yarn|yarnpkg|bunx|corepack)(?:-cli)?(?:\.(?:c?js|mjs|cmd|exe))?$/;
const RUNTIMES = new Set(["node", "nodejs", "bun"]);
/** What Windows shows of a launcher: the executable's name. */
const WINDOWS_SHELLS = new Set(["cmd.exe", "powershell.exe", "pwsh.exe", "sh.exe", "bash.exe"]);
const WINDOWS_RUNTIMES = new Set(["node.exe", "bun.exe"]);

/** The last segment of a path, either separator, lower case. */
function base(word: string | undefined): string {
  const parts = (word ?? "").split(/[\\/]/);
  return (parts[parts.length - 1] as string).toLowerCase();
}

/**
 * The words of a command line. A process that rewrote its title (npm: `npm exec effectgate`)
 * shows one word holding spaces, padded with spaces or NULs.
 */
function words(argv: readonly string[]): string[] {
  const [first = "", ...rest] = argv;
  return rest.every((w) => w.trim() === "") ? first.trim().split(/\s+/) : [...argv];
}

/**
 * Whether a shell with these arguments runs a command or a script, not an interactive or login
 * shell (a terminal's). A login shell's name starts with `-` and is no shell's name here. A
 * command string that itself starts with `-` is not told from an option: a limit that only
 * keys such a relay on its shell.
 */
function shellRuns(args: readonly string[]): boolean {
  // Past its options (-l, -e, +x, --norc) a shell is given a script, or after -c the command.
  return args.some((a) => !a.startsWith("-") && !a.startsWith("+"));
}

/** Whether this ancestor exists only to start what is below it. */
export function isLauncher(p: ProcessFacts): boolean {
  const w = words(p.argv);
  const exe = base(w[0]);
  if (!p.argvKnown) return WINDOWS_SHELLS.has(exe) || RUNNERS.test(exe);
  if (SHELLS.has(exe)) return shellRuns(w.slice(1));
  if (RUNNERS.test(exe)) return true;
  if (!RUNTIMES.has(exe)) return false;
  // `node …/npx-cli.js`, `bun x`
  const script = w.slice(1).find((a) => !a.startsWith("-"));
  return RUNNERS.test(base(script)) || (exe === "bun" && script === "x");
}

/**
 * The client in a chain of ancestors (`chain[0]` the relay's parent, then its parent…): the first
 * that is not a launcher. On Windows a runtime seen by name only (`node.exe`) counts as a
 * launcher between two launchers (cmd.exe, node.exe running npx, cmd.exe): a client that runs
 * from a terminal is then keyed on that terminal, which shares taint more widely, never less.
 * When every ancestor read is a launcher, the last one read stands for the client.
 */
export function clientOf(chain: readonly ProcessFacts[]): ProcessFacts | undefined {
  for (let i = 0; i < chain.length; i++) {
    const p = chain[i] as ProcessFacts;
    if (isLauncher(p)) continue;
    // Everything below it was a launcher, or it would not be reached.
    const above = chain[i + 1];
    const byNameOnly = !p.argvKnown && WINDOWS_RUNTIMES.has(base(p.argv[0]));
    if (byNameOnly && i > 0 && above !== undefined && isLauncher(above)) continue;
    return p;
  }
  return chain[chain.length - 1];
}

/** The name a client's relays share: its pid, and its start time when known. */
export function clientKey(p: Pick<ProcessFacts, "pid" | "start">): string {
  return p.start !== undefined ? `${p.pid}-${p.start}` : String(p.pid);
}
