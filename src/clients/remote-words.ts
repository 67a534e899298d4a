// The command line install --remote writes for a remote server (decision 0101), whatever the
// config's format: `effectgate [options] --url URL [--transport sse] [--header-env …]…`.
// Header values never go on the command line (other users can read a process's arguments):
// a value written in the config moves into the server's env, and a value the client read from
// an environment variable is passed through under that variable's own name.
import { createHash } from "node:crypto";
import type { Edit } from "./editors/view.js";
import type { Launcher, WrapFlags } from "./relay-argv.js";
import type { CommandStyle, ServerDecl } from "./types.js";

export const textHash = (text: string): string => createHash("sha256").update(text, "utf8").digest("hex");

export interface HeaderSources {
  /** Header name → value as written in the config: the value moves into the server's env. */
  values?: Readonly<Record<string, string>>;
  /** Header name → the environment variable holding its whole value (Codex `env_http_headers`). */
  fromEnv?: Readonly<Record<string, string>>;
  /** The environment variable holding a bearer token (Codex `bearer_token_env_var`). */
  bearerEnv?: string;
}

export interface RemoteWords {
  /** The whole argv: program, launcher arguments, then effectgate's options. */
  after: string[];
  /** Variables the server's env must set (the header values written in the config). */
  env: Record<string, string>;
  /** Variables of the user's environment the client must pass through (Codex `env_vars`). */
  passed: string[];
}

/** An environment variable name for a header: `Authorization` → `EFFECTGATE_HEADER_AUTHORIZATION`. */
function envNameFor(header: string, taken: Set<string>): string {
  const base = `EFFECTGATE_HEADER_${header.toUpperCase().replace(/[^A-Z0-9]/g, "_")}`;
  let name = base;
  for (let i = 2; taken.has(name); i++) name = `${base}_${i}`;
  taken.add(name);
  return name;
}

export function remoteWords(o: {
  launcher: Launcher;
  flags: WrapFlags;
  /** The URL as the pin identity spells it. */
  url: string;
  /** `--transport sse` when the client said SSE; empty for `auto`. */
  transport: readonly string[];
  headers: HeaderSources;
}): RemoteWords {
  const taken = new Set<string>();
  const env: Record<string, string> = {};
  const passed: string[] = [];
  const headerArgs: string[] = [];
  for (const [name, value] of Object.entries(o.headers.values ?? {})) {
    const variable = envNameFor(name, taken);
    env[variable] = value;
    headerArgs.push("--header-env", `${name}=${variable}`);
  }
  for (const [name, variable] of Object.entries(o.headers.fromEnv ?? {})) {
    headerArgs.push("--header-env", `${name}=${variable}`);
    if (!passed.includes(variable)) passed.push(variable);
  }
  if (o.headers.bearerEnv !== undefined) {
    // The relay reads `${VAR}` from its environment; the text on the command line is the name.
    headerArgs.push("--header", `Authorization: Bearer \${${o.headers.bearerEnv}}`);
    if (!passed.includes(o.headers.bearerEnv)) passed.push(o.headers.bearerEnv);
  }
  const [program = "", ...launcherArgs] = o.launcher.words;
  const optionWords = [
    ...(o.flags.policy !== undefined ? ["--policy", o.flags.policy] : []),
    ...(o.flags.level !== undefined ? ["--level", o.flags.level] : []),
    ...(o.flags.name !== undefined ? ["--name", o.flags.name] : []),
  ];
  return {
    after: [program, ...launcherArgs, ...optionWords, "--url", o.url, ...o.transport, ...headerArgs],
    env,
    passed,
  };
}

export interface RemoteWrapInput {
  body: string;
  decl: ServerDecl;
  /** The declaration as parsed. */
  raw: Record<string, unknown>;
  style: CommandStyle;
  launcher: Launcher;
  flags: WrapFlags;
}

export interface RemoteWrap {
  edits: Edit[];
  /** The declaration as the client will read it once written (the planner checks the text). */
  entry: Record<string, unknown>;
  before: string[];
  after: string[];
  /** The declaration's text before, for the memo. */
  original: string;
  /** The SHA-256 of the declaration's text as install writes it: the memo applies while it is so. */
  wroteHash: string;
}

/** How one config format wraps a remote declaration and finds its text again. */
export interface RemoteFormat {
  wrap(o: RemoteWrapInput): RemoteWrap | string;
  /** Where the declaration's text stands: what the memo keeps and uninstall puts back. */
  span(body: string, at: (string | number)[]): { start: number; end: number } | string;
  /** The declaration a remembered text declares once back at `start` (for the planner's check). */
  entryOf(
    original: string,
    body: string,
    start: number,
    at: (string | number)[],
  ): { value: unknown } | string;
}

/** The transport the client used, for `--transport`: only an explicit `sse` narrows `auto`. */
export function transportOf(decl: ServerDecl): string[] {
  return decl.type?.toLowerCase() === "sse" ? ["--transport", "sse"] : [];
}

/** Through JSON, so that TOML's null-prototype tables compare as plain data. */
export const plainData = (v: unknown): unknown =>
  v === undefined ? undefined : (JSON.parse(JSON.stringify(v)) as unknown);
