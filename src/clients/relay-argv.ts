// How a wrapped server's argv looks, and how to recognise one. The wrapped form is
//   <launcher…> [--policy P] [--level L] -- <original argv…>
// where the launcher is the absolute `effectgate` program, or `<node> <abs …/dist/main.js>`.
// Everything after the first `--` is the original argv, unchanged, so unwrapping needs no backup.

export interface Launcher {
  /** argv words that start effectgate: [program] or [node, main.js]. */
  words: string[];
}

export interface WrapFlags {
  level?: string | undefined;
  policy?: string | undefined;
}

/** The relay's own value-taking options that may appear before `--`. */
const RELAY_OPTIONS = new Set(["--policy", "--level", "--lock", "--log-dir", "--name"]);

const baseName = (p: string) => (p.split(/[\\/]/).pop() ?? p).toLowerCase();

export function wrapArgv(launcher: Launcher, flags: WrapFlags, original: string[]): string[] {
  const out = [...launcher.words];
  if (flags.policy !== undefined) out.push("--policy", flags.policy);
  if (flags.level !== undefined) out.push("--level", flags.level);
  return [...out, "--", ...original];
}

export type Recognised =
  | { wrapped: false }
  | { wrapped: true; inner: string[]; dash: number }
  | { wrapped: "malformed"; why: string };

/** How many launcher words start argv, or 0 when it does not start with effectgate. */
function launcherLength(argv: string[], knownMains: readonly string[]): number {
  const first = argv[0];
  if (first === undefined) return 0;
  if (/^effectgate(\.exe|\.cmd|\.ps1)?$/.test(baseName(first))) return 1;
  const second = argv[1];
  if (/^node(\.exe)?$/.test(baseName(first)) && second !== undefined) {
    if (knownMains.includes(second) || /[\\/]effectgate[\\/]dist[\\/]main\.js$/i.test(second)) return 2;
  }
  return 0;
}

export function recognise(argv: string[], knownMains: readonly string[]): Recognised {
  const n = launcherLength(argv, knownMains);
  if (n === 0) return { wrapped: false };
  if (!argv.includes("--", n)) return { wrapped: "malformed", why: "wrapped without a -- separator" };
  let i = n;
  while (i < argv.length && argv[i] !== "--") {
    if (!RELAY_OPTIONS.has(argv[i] ?? ""))
      return { wrapped: "malformed", why: `unexpected ${JSON.stringify(argv[i])} before --` };
    i += 2;
  }
  if (argv[i] !== "--") return { wrapped: "malformed", why: "wrapped without a -- separator" };
  const inner = argv.slice(i + 1);
  if (inner.length === 0) return { wrapped: "malformed", why: "nothing after --" };
  return { wrapped: true, inner, dash: i };
}
