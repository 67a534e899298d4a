// How a wrapped server's argv looks, and how to recognise one. The wrapped form is
//   <launcher…> [--policy P] [--level L] [--name N] -- <original argv…>
// where the launcher is the absolute `effectgate` program, or `<node> <abs …/dist/main.js>`.
// Everything after the first `--` is the original argv, unchanged, so unwrapping needs no backup.
//
// Two questions, kept apart (decision 0054): is this argv *shaped* like a wrapper (uninstall may
// unwrap any such), and does it start *this* effectgate (only then is the server guarded)?

export interface Launcher {
  /** argv words that start effectgate: [program] or [node, main.js]. */
  words: string[];
}

export interface WrapFlags {
  level?: string | undefined;
  policy?: string | undefined;
  /** The server's own name, for the policy's server globs (taint.servers) and the log. */
  name?: string | undefined;
}

/** The relay's own value-taking options that may appear before `--` (commands/relay.ts). */
const RELAY_OPTIONS = new Set(["--policy", "--level", "--lock", "--log-dir", "--name"]);
/** The options of a remote server (`effectgate --url …`), which takes no `--` (decision 0101). */
const REMOTE_OPTIONS = new Set([
  "--url",
  "--header",
  "--header-env",
  "--transport",
  "--oauth-client-id",
  "--oauth-client-secret-env",
  "--oauth-client-metadata-url",
  "--oauth-client-credentials",
  "--oauth-callback-port",
]);

/** One relay option as written: `--flag value` (two words) or `--flag=value` (one). */
export interface RelayOption {
  flag: string;
  value: string;
  /** Index of its first word in argv, and how many words it takes. */
  at: number;
  words: 1 | 2;
}

const baseName = (p: string) => (p.split(/[\\/]/).pop() ?? p).toLowerCase();
const isAbsolutePath = (p: string) => p.startsWith("/") || /^[A-Za-z]:[\\/]/.test(p) || p.startsWith("\\\\");
const NODE = /^node(\.exe)?$/;

export function wrapArgv(launcher: Launcher, flags: WrapFlags, original: string[]): string[] {
  const out = [...launcher.words];
  if (flags.policy !== undefined) out.push("--policy", flags.policy);
  if (flags.level !== undefined) out.push("--level", flags.level);
  if (flags.name !== undefined) out.push("--name", flags.name);
  return [...out, "--", ...original];
}

export type Recognised =
  | { wrapped: false }
  | {
      wrapped: true;
      /** Starts this effectgate (see `isGenuine`); false for a look-alike or a moved install. */
      genuine: boolean;
      /** How many launcher words start argv (1 or 2). */
      launcher: number;
      options: RelayOption[];
      inner: string[];
      dash: number;
      /** A wrapped remote server (`--url`, no `--`): its URL. `inner` is then empty, `dash` the length. */
      url?: string;
    }
  | { wrapped: "malformed"; why: string };

/** How many launcher words start argv, or 0 when it is not shaped like an effectgate launcher. */
function launcherLength(argv: readonly string[], knownMains: readonly string[]): number {
  const [first, second] = argv;
  if (first === undefined) return 0;
  if (knownMains.includes(first) || /^effectgate(\.exe|\.cmd|\.ps1)?$/.test(baseName(first))) return 1;
  if (NODE.test(baseName(first)) && second !== undefined) {
    if (knownMains.includes(second) || /[\\/]effectgate[\\/]dist[\\/]main\.js$/i.test(second)) return 2;
  }
  return 0;
}

/**
 * Whether the launcher words start this effectgate. A client resolves a bare program name on its
 * PATH and a relative path against a folder nobody controls here (a repo can ship
 * `./tools/effectgate/dist/main.js`), so only these count: the bare name `effectgate[.exe|.cmd]`,
 * a path in knownMains, or bare or absolute node followed by a main.js in knownMains.
 */
function isGenuine(words: readonly string[], knownMains: readonly string[]): boolean {
  const [first = "", second] = words;
  if (second === undefined) return knownMains.includes(first) || /^effectgate(\.exe|\.cmd)?$/i.test(first);
  const node = NODE.test(first.toLowerCase()) || (isAbsolutePath(first) && NODE.test(baseName(first)));
  return node && knownMains.includes(second);
}

export function recognise(argv: readonly string[], knownMains: readonly string[]): Recognised {
  const n = launcherLength(argv, knownMains);
  if (n === 0) return { wrapped: false };
  const remote = argv.slice(n).some((w) => w === "--url" || w.startsWith("--url="));
  if (!remote && !argv.includes("--", n))
    return { wrapped: "malformed", why: "wrapped without a -- separator" };
  const options: RelayOption[] = [];
  let i = n;
  while (i < argv.length && argv[i] !== "--") {
    const word = argv[i] as string;
    const eq = word.indexOf("=");
    const flag = eq > 0 ? word.slice(0, eq) : word;
    if (!RELAY_OPTIONS.has(flag) && !(remote && REMOTE_OPTIONS.has(flag)))
      return { wrapped: "malformed", why: `unexpected ${JSON.stringify(word)} before --` };
    const value = eq > 0 ? word.slice(eq + 1) : argv[i + 1];
    // The relay refuses `--policy --` and a missing value (commands/relay.ts parseRelayArgs).
    if (value === undefined || value === "--")
      return { wrapped: "malformed", why: `${flag} without a value` };
    options.push({ flag, value, at: i, words: eq > 0 ? 1 : 2 });
    i += eq > 0 ? 1 : 2;
  }
  if (remote) {
    if (i < argv.length) return { wrapped: "malformed", why: "both --url and a command after --" };
    const url = options.filter((o) => o.flag === "--url").map((o) => o.value);
    if (url.length !== 1) return { wrapped: "malformed", why: "--url given more than once" };
    const genuine = isGenuine(argv.slice(0, n), knownMains);
    return {
      wrapped: true,
      genuine,
      launcher: n,
      options,
      inner: [],
      dash: argv.length,
      url: url[0] as string,
    };
  }
  if (argv[i] !== "--") return { wrapped: "malformed", why: "wrapped without a -- separator" };
  const inner = argv.slice(i + 1);
  if (inner.length === 0) return { wrapped: "malformed", why: "nothing after --" };
  const genuine = isGenuine(argv.slice(0, n), knownMains);
  return { wrapped: true, genuine, launcher: n, options, inner, dash: i };
}

/** One word of a rewritten prefix; `from` is the index of the same word in the old argv, whose
 *  bytes are then kept as written. */
export interface PrefixWord {
  value: string;
  from?: number;
}

/**
 * The words before `--` that install wants for an already-wrapped argv: the current launcher,
 * the options as they were (each in its own spelling), `--level`/`--policy` set to what this
 * install was given, and `--name` added when there is none. Options install was not given are
 * kept, except those of a launcher that is not this effectgate when `dropForeignOptions` is set:
 * a repository can ship `.mcp.json` with a look-alike wrapper whose `--policy ./allow-all.yaml`
 * or `--name` would otherwise run under the real effectgate. Returns undefined when the argv
 * already starts that way.
 */
export function rewrapPrefix(
  argv: readonly string[],
  r: Extract<Recognised, { wrapped: true }>,
  launcher: Launcher,
  flags: WrapFlags,
  dropForeignOptions = false,
): { prefix: PrefixWord[]; changes: string[] } | undefined {
  const changes: string[] = [];
  if (dropForeignOptions && !r.genuine) {
    const dropped = r.options.map((o) => `${o.flag} ${JSON.stringify(o.value)}`);
    if (dropped.length > 0)
      changes.push(`drops ${dropped.join(", ")} (set by a launcher that is not this effectgate)`);
    r = { ...r, options: [] };
  }
  const oldLauncher = argv.slice(0, r.launcher);
  const prefix: PrefixWord[] = launcher.words.map((value, i) =>
    oldLauncher[i] === value ? { value, from: i } : { value },
  );
  if (oldLauncher.join("\0") !== launcher.words.join("\0"))
    changes.push(r.genuine ? "new launcher" : "the launcher is not this effectgate");
  const given = new Map<string, string>();
  if (flags.policy !== undefined) given.set("--policy", flags.policy);
  if (flags.level !== undefined) given.set("--level", flags.level);
  const done = new Set<string>();
  for (const o of r.options) {
    const want = given.get(o.flag);
    if (want === undefined) {
      for (let k = 0; k < o.words; k++) prefix.push({ value: argv[o.at + k] as string, from: o.at + k });
    } else if (done.has(o.flag)) {
      changes.push(`drops a second ${o.flag}`);
    } else if (want === o.value) {
      for (let k = 0; k < o.words; k++) prefix.push({ value: argv[o.at + k] as string, from: o.at + k });
    } else {
      prefix.push({ value: o.flag }, { value: want });
      changes.push(`${o.flag} ${o.value} -> ${want}`);
    }
    done.add(o.flag);
  }
  for (const [flag, value] of given) {
    if (done.has(flag)) continue;
    prefix.push({ value: flag }, { value });
    changes.push(`adds ${flag} ${value}`);
  }
  // A --lock keys its pins by the command line unless named (core/pins/identity.ts):
  // naming such a server would orphan its pins, so it keeps going unnamed.
  const has = (flag: string) => r.options.some((o) => o.flag === flag);
  if (flags.name !== undefined && !has("--name") && !has("--lock")) {
    prefix.push({ value: "--name" }, { value: flags.name });
    changes.push(`adds --name ${JSON.stringify(flags.name)}`);
  }
  const same = prefix.length === r.dash && prefix.every((w, i) => w.value === argv[i] && w.from === i);
  return same ? undefined : { prefix, changes };
}
