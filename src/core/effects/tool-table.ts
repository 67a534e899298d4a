import type { CompiledPolicy } from "../policy/api.js";
import type { Operation } from "../types.js";

/**
 * What well-known servers' tools do with each argument. The table beats the verb guess: it is
 * how `move_file`'s `source` becomes a write and Desktop Commander's `read_file` a URL fetch.
 *
 * Roles:
 * - read / write / exec: a local path (or list of paths) the tool reads, writes or runs;
 * - readWrite: a local path the tool reads and changes: `edit_file` answers with a diff of the
 *   file's old lines (a dry run changes nothing and still shows them), and `move_file`'s source
 *   hands its content to a name no rule may protect. Both `paths.deny` and `deny_read` see it;
 * - command: a command or code string; yields an exec effect, and its tokens are judged as paths;
 * - url: fetched from the network (read, open-world);
 * - pathOrUrl: a path, or a URL when the string starts with http(s)://;
 * - text: free text or file content: never a path (a file body mentioning ~/.ssh is not a write to it);
 * - remote: a path in a remote repository (GitHub): not on this machine, so not matched against
 *   local path rules; the tool's own verdict comes from the exec/verb rules. Only when the call
 *   names the repository (`owner` and `repo`); otherwise the path is local (see knownTool).
 * - gitWord: a word the tool hands to git on its command line (mcp-server-git's `git_diff target`):
 *   text, unless it starts with `-`, when git reads it as an option (`--output=~/.zshrc` writes
 *   a file), and the call cannot be judged;
 * Arguments a known tool does not list fall back to the generic rules (every string a candidate).
 */
export type ArgRole =
  Operation | "readWrite" | "command" | "url" | "pathOrUrl" | "text" | "remote" | "gitWord";

export interface KnownTool {
  /** Operation for strings in arguments the table does not list. */
  fallback: Operation;
  args: Readonly<Record<string, ArgRole>>;
  /** Tool runs code or commands whatever the policy's exec globs say. */
  exec?: boolean;
  /** Its command is run by a POSIX shell (so the bash grammar reads it). */
  shell?: boolean;
  /**
   * Arguments whose path may be a whole folder the tool moves or removes: a protected path
   * below it is touched too (see containers.ts).
   */
  containers?: readonly string[];
  /** Arguments whose path may be a whole folder the tool removes (see containers.ts). */
  removes?: readonly string[];
}

const fsRead: KnownTool = {
  fallback: "read",
  args: { path: "read", paths: "read", excludePatterns: "text", pattern: "text" },
};
const fsWrite: KnownTool = { fallback: "write", args: { path: "write" } };

/**
 * Keys are tool names in lower case; servers spell them in snake_case. A Map, because a server
 * names its tools: a plain object would answer `__proto__` or `toString` from Object.prototype.
 */
const TABLE = new Map<string, KnownTool>(
  Object.entries<KnownTool>({
    // @modelcontextprotocol/server-filesystem (and Desktop Commander's same-named tools)
    read_file: { fallback: "read", args: { path: "read", head: "text", tail: "text" } },
    read_text_file: fsRead,
    read_media_file: fsRead,
    read_multiple_files: fsRead,
    list_directory: fsRead,
    list_directory_with_sizes: { fallback: "read", args: { path: "read", sortBy: "text" } },
    directory_tree: fsRead,
    search_files: fsRead,
    get_file_info: fsRead,
    list_allowed_directories: { fallback: "read", args: {} },
    write_file: { fallback: "write", args: { path: "write", content: "text", mode: "text" } },
    edit_file: { fallback: "write", args: { path: "readWrite", edits: "text", dryRun: "text" } },
    create_directory: fsWrite,
    // Either end may be a folder: moving one onto repo/.git plants hooks without naming them.
    move_file: {
      fallback: "write",
      args: { source: "readWrite", destination: "write" },
      containers: ["source", "destination"],
    },
    // mcp-server-git: every tool names the repository; writes change files under it.
    git_status: { fallback: "read", args: { repo_path: "read" } },
    git_diff_unstaged: { fallback: "read", args: { repo_path: "read" } },
    git_diff_staged: { fallback: "read", args: { repo_path: "read" } },
    git_diff: { fallback: "read", args: { repo_path: "read", target: "gitWord" } },
    git_log: { fallback: "read", args: { repo_path: "read" } },
    git_show: { fallback: "read", args: { repo_path: "read", revision: "gitWord" } },
    git_branch: {
      fallback: "read",
      args: { repo_path: "read", branch_type: "gitWord", contains: "gitWord", not_contains: "gitWord" },
    },
    // git_add reads what it stages: git_diff_staged prints it next (decision 0069).
    git_add: { fallback: "write", args: { repo_path: "write", files: "readWrite" } },
    git_commit: { fallback: "write", args: { repo_path: "write", message: "text" } },
    git_checkout: { fallback: "write", args: { repo_path: "write", branch_name: "gitWord" } },
    git_create_branch: {
      fallback: "write",
      args: { repo_path: "write", branch_name: "gitWord", base_branch: "gitWord" },
    },
    git_reset: { fallback: "write", args: { repo_path: "write" } },
    // Desktop Commander
    edit_block: {
      fallback: "write",
      args: { file_path: "readWrite", old_string: "text", new_string: "text" },
    },
    write_pdf: { fallback: "write", args: { path: "read", outputPath: "write", content: "text" } },
    start_search: { fallback: "read", args: { path: "read", pattern: "text" } },
    start_process: { fallback: "exec", args: { command: "command", shell: "exec" }, exec: true, shell: true },
    interact_with_process: { fallback: "exec", args: { input: "command" }, exec: true },
    // set_config_value can widen allowedDirectories or change the shell: treat as code.
    set_config_value: { fallback: "exec", args: { key: "command", value: "command" }, exec: true },
    // mcp-server-fetch and server-everything
    fetch: { fallback: "read", args: { url: "url" } },
    "gzip-file-as-resource": { fallback: "write", args: { data: "url", name: "write", outputType: "text" } },
    // blender-mcp
    execute_blender_code: { fallback: "exec", args: { code: "command" }, exec: true },
    generate_hyper3d_model_via_images: {
      fallback: "read",
      args: { input_image_paths: "read", input_image_urls: "url" },
    },
    generate_hunyuan3d_model: { fallback: "read", args: { text_prompt: "text", input_image_url: "url" } },
    import_generated_asset_hunyuan: { fallback: "write", args: { zip_file_url: "url" } },
    // shell servers
    run_command: {
      fallback: "exec",
      args: { command: "command", workdir: "exec", stdin: "command" },
      exec: true,
      shell: true,
    },
    shell_execute: {
      fallback: "exec",
      args: { command: "command", directory: "exec", stdin: "command" },
      exec: true,
      shell: true,
    },
    write_to_terminal: { fallback: "exec", args: { command: "command" }, exec: true, shell: true },
    // GitHub: paths name files in a remote repository, not on this machine.
    create_or_update_file: {
      fallback: "write",
      args: {
        path: "remote",
        content: "text",
        message: "text",
        branch: "text",
        owner: "text",
        repo: "text",
        sha: "text",
      },
    },
    push_files: {
      fallback: "write",
      args: { files: "remote", message: "text", branch: "text", owner: "text", repo: "text" },
    },
    // Removes a whole folder when it is a local tool of the same name (see knownTool).
    delete_file: {
      fallback: "write",
      args: { path: "remote", message: "text", branch: "text", owner: "text", repo: "text" },
      removes: ["path"],
    },
    get_file_contents: {
      fallback: "read",
      args: { path: "remote", owner: "text", repo: "text", ref: "text", branch: "text" },
    },
  }),
);

/** Whether the call names a remote repository: GitHub's tools take `owner` and `repo`. */
function namesRepository(args: Record<string, unknown>): boolean {
  const named = (v: unknown) => typeof v === "string" && v.trim() !== "";
  return named(args["owner"]) && named(args["repo"]);
}

/**
 * The table's entry for `tool` as this call uses it. Desktop Commander's read_file fetches `path`
 * as a URL when `isUrl` is true. A GitHub tool's path is remote only when the call names the
 * repository: a local server's `delete_file {path}` deletes a file here, so its path is read
 * with the tool's own operation and judged like any other.
 */
/** The role the table declares for argument `name`, own keys only (`constructor` is no role). */
export function declaredRole(known: KnownTool | undefined, name: string): ArgRole | undefined {
  return known !== undefined && Object.hasOwn(known.args, name) ? known.args[name] : undefined;
}

/** The tools with a `remote` argument, found once: every call asks knownTool three times. */
const WITH_REMOTE = new Set(
  [...TABLE].filter(([, entry]) => Object.values(entry.args).includes("remote")).map(([name]) => name),
);

export function knownTool(tool: string, args: Record<string, unknown>): KnownTool | undefined {
  const name = tool.toLowerCase();
  const entry = TABLE.get(name);
  // (`isUrl` itself is a boolean, which never names a path, so it needs no role.)
  if (name === "read_file" && args["isUrl"] === true) {
    return { fallback: "read", args: { path: "pathOrUrl" } };
  }
  if (entry === undefined || !WITH_REMOTE.has(name) || namesRepository(args)) return entry;
  const local = Object.entries(entry.args).map(([k, r]) => [k, r === "remote" ? entry.fallback : r]);
  return { ...entry, args: Object.fromEntries(local) as Record<string, ArgRole> };
}

const READ_VERBS = new Set([
  "read",
  "get",
  "list",
  "search",
  "show",
  "view",
  "cat",
  "fetch",
  "find",
  "query",
  "describe",
  "stat",
  "info",
  "status",
  "diff",
  "head",
  "tail",
  "ls",
  "inspect",
  "count",
  "lookup",
  "browse",
  "poll",
  "tree",
]);
const WRITE_VERBS = new Set([
  "write",
  "create",
  "edit",
  "update",
  "delete",
  "remove",
  "rm",
  "move",
  "mv",
  "rename",
  "append",
  "put",
  "save",
  "set",
  "patch",
  "upload",
  "copy",
  "cp",
  "replace",
  "insert",
  "add",
  "modify",
  "truncate",
  "mkdir",
  "touch",
  "chmod",
  "chown",
  "install",
  "import",
  "export",
  "push",
  "commit",
  "reset",
  "checkout",
  "apply",
  "generate",
  "make",
  "build",
  "exec",
  "run",
  "execute",
  "start",
  "kill",
  "send",
  "post",
  // They put what they get into a file: download_file's `path`, log_to_file's `file`.
  "download",
  "log",
  "dump",
  "record",
  "store",
  "output",
  "backup",
]);

// A session names few tools and argument names, each on every call: their words are kept
// (two regular expressions per name were 4% of a decision). Cleared whole when full, so a server
// that invents names cannot grow it.
const WORDS_KEPT = 512;
const wordsOf = new Map<string, readonly string[]>();

/** Words of a tool name: snake_case, kebab-case, dotted, camelCase. */
export function nameWords(tool: string): readonly string[] {
  const kept = wordsOf.get(tool);
  if (kept !== undefined) return kept;
  const words = Object.freeze(
    tool
      .replace(/([a-z0-9])([A-Z])/g, "$1 $2")
      .toLowerCase()
      .split(/[^a-z0-9]+/)
      .filter((w) => w.length > 0),
  );
  if (wordsOf.size >= WORDS_KEPT) wordsOf.clear();
  wordsOf.set(tool, words);
  return words;
}

/**
 * Operation guessed from a tool's name: any write verb wins (`read_and_delete` writes), then a read
 * verb; a name with neither is treated as a write, since guessing "read" would be the unsafe error.
 */
export function verbOperation(tool: string): Operation {
  const words = nameWords(tool);
  if (words.some((w) => WRITE_VERBS.has(w))) return "write";
  if (words.some((w) => READ_VERBS.has(w))) return "read";
  return "write";
}

/**
 * How the paths of a tool the table does not know are judged: only a name that says "read" and
 * nothing else (`get_thing`) makes a reader only; every other tool is judged both as a write and
 * as a read. Most writers read too (`copy_file` and `backup_file` read their source, `send_file`
 * and `upload` hand it to someone else, `read_and_delete` does both), and which of their paths
 * they read cannot be told; judging them only as writes would hide a secret from
 * `paths.deny_read`, whose list is not a subset of `paths.deny`.
 */
export function verbOperations(tool: string): Operation[] {
  const words = nameWords(tool);
  const readsOnly = words.some((w) => READ_VERBS.has(w)) && !words.some((w) => WRITE_VERBS.has(w));
  return readsOnly ? ["read"] : ["write", "read"];
}

/**
 * Whether a call to `tool` may run commands (the exec class, by the policy's globs or the table):
 * only then is the bash grammar worth loading.
 */
export function runsCommands(policy: Pick<CompiledPolicy, "execGlob">, tool: string): boolean {
  return policy.execGlob(tool) !== undefined || knownTool(tool, {})?.exec === true;
}
