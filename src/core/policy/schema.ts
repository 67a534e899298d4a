// The policy file's shape, as data: one strict zod schema (unknown keys are errors), plus the
// human wording of what each key expects, so that problems read "expected a list of path
// patterns" rather than zod's internal type names. See docs/policy.md for the semantics.
import { z } from "zod";

const verdict = z.enum(["allow", "confirm", "deny"]);
const stringList = z.array(z.string());

const PathsSchema = z.strictObject({
  deny: stringList.optional(),
  deny_if_tainted: stringList.optional(),
  confirm: stringList.optional(),
  confirm_if_tainted: stringList.optional(),
  deny_read: stringList.optional(),
});

export const ExecSchema = z.strictObject({
  tools: stringList.optional(),
  action: verdict.optional(),
  action_if_tainted: verdict.optional(),
});

const TaintSchema = z.strictObject({
  sources: stringList.optional(),
  servers: stringList.optional(),
  exclude: stringList.optional(),
  signatures: z.boolean().optional(),
});

const EnvSchema = z.strictObject({
  deny: stringList.optional(),
});

const RunsLaterSchema = z.strictObject({
  git_dirs: verdict.optional(),
  path_folders: verdict.optional(),
});

const EgressSchema = z.strictObject({
  deny_hosts: stringList.optional(),
  confirm_hosts: stringList.optional(),
  allow_hosts: stringList.optional(),
  credential_hosts: z.record(z.string(), stringList).optional(),
  tainted_new_host: verdict.optional(),
  secrets: verdict.optional(),
});

// How a question is put when the client cannot be asked in its chat (decision 0126).
const AskSchema = z.strictObject({
  dialog: z.enum(["auto", "off"]).optional(),
});

const TRUSTED_HOST_CLASSES = ["loopback", "private", "link-local"] as const;

export const CommandsSchema = z.strictObject({
  known: verdict.optional(),
  known_if_tainted: verdict.optional(),
  project: verdict.optional(),
  project_if_tainted: verdict.optional(),
  after_write: verdict.optional(),
  after_write_if_tainted: verdict.optional(),
  sends: verdict.optional(),
  sends_if_tainted: verdict.optional(),
  network_code: verdict.optional(),
  code_settings: verdict.optional(),
  persistence: verdict.optional(),
  destructive: verdict.optional(),
  protected_roots: stringList.optional(),
  decides_what_runs: stringList.optional(),
  trusted_hosts: z.array(z.enum(TRUSTED_HOST_CLASSES)).optional(),
  // Entries are checked by compilePrograms (src/core/policy/catalogue.ts), with their own words.
  programs: z.record(z.string(), z.unknown()).optional(),
});

export const PolicySchema = z.strictObject({
  version: z.literal(1),
  mode: z.enum(["observe", "enforce", "strict"]).optional(),
  paths: PathsSchema.optional(),
  exec: ExecSchema.optional(),
  taint: TaintSchema.optional(),
  env: EnvSchema.optional(),
  runs_later: RunsLaterSchema.optional(),
  egress: EgressSchema.optional(),
  commands: CommandsSchema.optional(),
  ask: AskSchema.optional(),
});

export type PolicyDocument = z.infer<typeof PolicySchema>;

/** The keys each mapping accepts, in file order, for "did you mean" hints and messages. */
export const KNOWN_KEYS: Readonly<Record<string, readonly string[]>> = {
  "": Object.keys(PolicySchema.shape),
  paths: Object.keys(PathsSchema.shape),
  exec: Object.keys(ExecSchema.shape),
  taint: Object.keys(TaintSchema.shape),
  env: Object.keys(EnvSchema.shape),
  runs_later: Object.keys(RunsLaterSchema.shape),
  egress: Object.keys(EgressSchema.shape),
  commands: Object.keys(CommandsSchema.shape),
  ask: Object.keys(AskSchema.shape),
};

const PATTERNS = "a list of path patterns (quoted strings)";
const GLOBS = "a list of tool-name globs (quoted strings)";
const VERDICT = "one of allow, confirm, deny";
const HOSTS = "a list of host patterns (quoted strings)";

/** What a key expects, in words; keyed by the key path with list indexes written as `[]`. */
const EXPECTED: Readonly<Record<string, string>> = {
  "": "a mapping with version: 1",
  version: "1",
  mode: "one of observe, enforce, strict",
  paths: `a mapping with ${Object.keys(PathsSchema.shape).join(", ")}`,
  "paths.deny": PATTERNS,
  "paths.deny_if_tainted": PATTERNS,
  "paths.confirm": PATTERNS,
  "paths.confirm_if_tainted": PATTERNS,
  "paths.deny_read": PATTERNS,
  "paths.deny[]": "a path pattern string",
  "paths.deny_if_tainted[]": "a path pattern string",
  "paths.confirm[]": "a path pattern string",
  "paths.confirm_if_tainted[]": "a path pattern string",
  "paths.deny_read[]": "a path pattern string",
  exec: "a mapping with tools, action, action_if_tainted",
  "exec.tools": GLOBS,
  "exec.tools[]": "a tool-name glob string",
  "exec.action": VERDICT,
  "exec.action_if_tainted": VERDICT,
  taint: "a mapping with sources, servers, exclude, signatures",
  "taint.sources": GLOBS,
  "taint.sources[]": "a tool-name glob string",
  "taint.servers": "a list of server-name globs (quoted strings)",
  "taint.servers[]": "a server-name glob string",
  "taint.exclude": GLOBS,
  "taint.exclude[]": "a tool-name glob string",
  "taint.signatures": "true or false",
  commands: `a mapping with ${Object.keys(CommandsSchema.shape).join(", ")}`,
  "commands.known": VERDICT,
  "commands.known_if_tainted": VERDICT,
  "commands.project": VERDICT,
  "commands.project_if_tainted": VERDICT,
  "commands.after_write": VERDICT,
  "commands.after_write_if_tainted": VERDICT,
  "commands.sends": VERDICT,
  "commands.sends_if_tainted": VERDICT,
  "commands.network_code": VERDICT,
  "commands.code_settings": VERDICT,
  "commands.persistence": VERDICT,
  "commands.destructive": VERDICT,
  "commands.protected_roots": PATTERNS,
  "commands.protected_roots[]": "a path pattern string",
  "commands.decides_what_runs": PATTERNS,
  "commands.decides_what_runs[]": "a path pattern string",
  "commands.trusted_hosts": "a list of host classes (loopback, private, link-local)",
  "commands.trusted_hosts[]": "one of loopback, private, link-local",
  "commands.programs": "a mapping of program names to catalogue entries (docs/commands.md)",
  env: "a mapping with deny",
  "env.deny": "a list of environment-variable name globs",
  "env.deny[]": "a variable-name glob string",
  runs_later: "a mapping with git_dirs, path_folders",
  "runs_later.git_dirs": VERDICT,
  "runs_later.path_folders": VERDICT,
  egress: "a mapping with deny_hosts, confirm_hosts, allow_hosts, credential_hosts, tainted_new_host, secrets",
  "egress.deny_hosts": HOSTS,
  "egress.confirm_hosts": HOSTS,
  "egress.allow_hosts": HOSTS,
  "egress.deny_hosts[]": "a host pattern string",
  "egress.confirm_hosts[]": "a host pattern string",
  "egress.allow_hosts[]": "a host pattern string",
  "egress.credential_hosts": "a mapping of variable names to lists of host patterns",
  "egress.credential_hosts.*": "a list of host patterns",
  "egress.credential_hosts.*[]": "a host pattern string",
  "egress.tainted_new_host": VERDICT,
  "egress.secrets": VERDICT,
  ask: "a mapping with dialog",
  "ask.dialog": "one of auto, off",
};

/** Words for what the value at `path` should be; `[3]` and `[0]` both look up `[]`. */
export function expectedAt(path: readonly PropertyKey[]): string | undefined {
  const key = path
    .map((p) => (typeof p === "number" ? "[]" : String(p)))
    .join(".")
    .replace(/\.\[\]/g, "[]")
    // credential_hosts is keyed by variable names: one entry stands for them all.
    .replace(/^egress\.credential_hosts\.[^.[]+/, "egress.credential_hosts.*");
  return EXPECTED[key];
}
