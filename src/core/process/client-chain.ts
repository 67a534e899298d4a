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
const SHELLS = new Set(["sh", "bash", "dash", "zsh", "ksh", "mksh", "ash", "fish", "busybox"]);
/** Package runners and their scripts, run by node or on their own (npm sets its title `npm exec …`). */
const RUNNERS = /^(?:npx|npm|pnpm|pnpx|yarn|yarnpkg|bunx|corepack)(?:-cli)?(?:\.(?:c?js|mjs|cmd|exe))?$/;
const RUNTIMES = new Set(["node", "nodejs", "bun"]);
/** What Windows shows of a launcher: the executable's name. */
const WINDOWS_SHELLS = new Set(["cmd.exe", "powershell.exe", "pwsh.exe", "sh.exe", "bash.exe"]);

/** The last segment of a path, either separator, lower case. */
function base(word: string | undefined): string {
  return (word ?? "").split(/[\\/]/).pop()?.toLowerCase() ?? "";
}

/**
 * The words of a command line. A process that rewrote its title (npm: `npm exec effectgate`)
 * shows one word holding spaces, padded with spaces or NULs.
 */
function words(argv: readonly string[]): string[] {
  const [first = "", ...rest] = argv;
  if (rest.every((w) => w.trim() === "") && /\s/.test(first.trim())) return first.trim().split(/\s+/);
  return [...argv];
}

/** Whether a shell with these arguments runs a command or a script (not an interactive terminal). */
function shellRuns(args: readonly string[]): boolean {
  for (const a of args) {
    if (a === "--") return true;
    // `-c`, `-lc`, `-ec`: an option cluster holding c; `/c`, `/k` for cmd-like shells too.
    if (/^-[A-Za-z]*c[A-Za-z]*$/.test(a) || /^\/[ck]$/i.test(a)) return true;
    if (!a.startsWith("-") && !a.startsWith("+")) return true; // a script
  }
  return false;
}

/** Whether this ancestor exists only to start what is below it. */
export function isLauncher(p: ProcessFacts): boolean {
  const w = words(p.argv);
  const exe = base(w[0]);
  if (!p.argvKnown) return WINDOWS_SHELLS.has(exe) || RUNNERS.test(exe);
  // A login shell's name starts with "-": a terminal's, never a launcher.
  if (w[0]?.startsWith("-") === true) return false;
  const name = exe.replace(/\.exe$/, "");
  if (SHELLS.has(name) || name === "cmd" || name === "powershell" || name === "pwsh")
    return shellRuns(w.slice(1));
  if (RUNNERS.test(exe)) return true;
  if (RUNTIMES.has(name)) {
    // `node …/npx-cli.js`, `bun x`
    const script = w.slice(1).find((a) => !a.startsWith("-"));
    return (script !== undefined && RUNNERS.test(base(script))) || (name === "bun" && script === "x");
  }
  return false;
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
    const below = chain[i - 1];
    const above = chain[i + 1];
    const byNameOnly = !p.argvKnown && RUNTIMES.has(base(p.argv[0]).replace(/\.exe$/, ""));
    if (byNameOnly && below !== undefined && above !== undefined && isLauncher(below) && isLauncher(above))
      continue;
    return p;
  }
  return chain[chain.length - 1];
}

/** The name a client's relays share: its pid, and its start time when known. */
export function clientKey(p: Pick<ProcessFacts, "pid" | "start">): string {
  return p.start !== undefined ? `${p.pid}-${p.start}` : String(p.pid);
}
