// The vocabularies behind effect extraction: which argument names carry a command or a working
// directory, which words make a tool a reader, writer, mover or remover, which programs move or
// remove their operands, and what each known server's tools do with their arguments.
import { describe, expect, it } from "vitest";
import { containerTest, moverOperands } from "../../../src/core/effects/containers.js";
import { workdirsOf } from "../../../src/core/effects/exec-arguments.js";
import { extractEffects } from "../../../src/core/effects/extract.js";
import { isUrl } from "../../../src/core/effects/string-shapes.js";
import { isRelativeWord } from "../../../src/core/shell/workdir.js";
import { verbOperation } from "../../../src/core/effects/tool-table.js";
import type { Effect } from "../../../src/core/types.js";

const fx = (tool: string, args: Record<string, unknown>, exec = false) => {
  const r = extractEffects(tool, args, exec);
  if (!r.ok) throw new Error(r.error);
  return r.effects.map((e) => `${e.operation} ${e.kind} ${e.at} ${e.spelled}`);
};
const write = (spelled: string, at = "arguments.command"): Effect => ({
  operation: "write",
  kind: "path",
  at,
  spelled,
});

describe("exec arguments", () => {
  it("finds the command under each usual name, in order of preference", () => {
    const names = ["command", "cmd", "code", "script", "input", "stdin", "args", "argv"];
    names.forEach((name, i) => {
      const args: Record<string, unknown> = {};
      for (const later of names.slice(i)) args[later] = `${later}-value`;
      expect(fx("run_it", args, true)[0], name).toBe(`exec command arguments ${name}-value`);
    });
  });

  it("finds every working directory under each usual name, in a fixed order", () => {
    const names = ["cwd", "workdir", "working_directory", "workingDirectory", "directory", "dir"];
    names.forEach((name, i) => {
      const args: Record<string, unknown> = {};
      for (const later of names.slice(i)) args[later] = `/${later}`;
      expect(workdirsOf(args), name).toEqual(
        names.slice(i).map((n) => ({ at: `arguments.${n}`, dir: `/${n}` })),
      );
    });
    expect(workdirsOf({ path: "/p", folder: "/f" })).toEqual([]);
  });

  it("takes identifier-shaped argument names as names, and other names as candidates", () => {
    expect(fx("get_frob", { _x9: 1, A_b: 2 })).toEqual([]);
    for (const name of ["9lives", "a-b", "a.b", "x y", "é"])
      expect(fx("get_frob", { [name]: 1 }), name).toEqual([
        `read path arguments{key ${JSON.stringify(name)}} ${name}`,
      ]);
  });
});

describe("words that need no working directory", () => {
  it("counts /, \\, ~, $, % and drive letters as absolute", () => {
    for (const w of ["/etc", "\\\\srv\\s", "~", "~user", "$HOME/x", "%APPDATA%\\x", "c:x", "Z:\\"])
      expect(isRelativeWord(w), w).toBe(false);
    for (const w of ["etc", "a/b", "x~", "a$b", "ab:", "1:", ".:x"]) expect(isRelativeWord(w), w).toBe(true);
  });

  it("counts only http and https at the start as URLs", () => {
    for (const u of ["http://x", "HTTP://x", "https://x", "\t https://x"]) expect(isUrl(u), u).toBe(true);
    for (const u of ["httpss://x", "htp://x", "https:/x", "x https://x", "https//x", "ws://x"])
      expect(isUrl(u), u).toBe(false);
  });
});

describe("verbs in unfamiliar tool names", () => {
  const READS = [
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
  ];
  const WRITES = [
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
    // Where the result of these goes is a file they write (decision 0058).
    "download",
    "log",
    "dump",
    "record",
    "store",
    "output",
    "backup",
  ];

  it("judges a tool named for reading as a reader", () => {
    for (const v of READS) expect(verbOperation(`${v}_things`), v).toBe("read");
  });

  it("judges a tool whose name also writes as a writer", () => {
    for (const v of WRITES) expect(verbOperation(`get_and_${v}`), v).toBe("write");
  });
});

describe("movers and removers", () => {
  it("treats written paths of tools named for moving, copying or unpacking as placed folders", () => {
    for (const w of ["move", "mv", "rename", "ren", "copy", "cp", "extract", "unzip", "unpack"])
      expect(containerTest(`${w}_it`, {}, false)(write("x", "arguments.p")), w).toBe("place");
  });

  it("treats written paths of tools named for removing as removed folders", () => {
    for (const w of ["delete", "del", "remove", "rm", "rmdir", "trash"])
      expect(containerTest(`${w}_it`, {}, false)(write("x", "arguments.p")), w).toBe("remove");
    expect(containerTest("write_it", {}, false)(write("x", "arguments.p"))).toBeUndefined();
  });

  it("knows the programs that remove their operands", () => {
    for (const p of ["rm", "rmdir", "del", "erase", "rd", "Remove-Item", "ri", "RM.EXE"])
      expect(containerTest("run_it", { command: `${p} x` }, true)(write("x")), p).toBe("remove");
  });

  it("knows the programs that move, copy, link or unpack onto their operands", () => {
    const movers = [
      "mv",
      "cp",
      "ln",
      "rsync",
      "ditto",
      "unzip",
      "move",
      "copy",
      "ren",
      "rename",
      "xcopy",
      "robocopy",
      "Move-Item",
      "Copy-Item",
      "Rename-Item",
      "mi",
      "cpi",
      "rni",
    ];
    for (const p of movers) expect(moverOperands(`${p} a b`), p).toEqual(["a", "b"]);
    // Packers and unpackers place what they hold too (decision 0062).
    for (const p of ["tar", "7z", "scp", "Expand-Archive", "Compress-Archive", "mklink"])
      expect(moverOperands(`${p} a b`), p).toEqual(["a", "b"]);
    for (const p of ["cat", "git", "mkdir"]) expect(moverOperands(`${p} a b`), p).toEqual([]);
  });

  it("looks through wrappers and assignments to the program they run", () => {
    for (const w of ["sudo", "doas", "env", "nohup", "command", "builtin", "exec", "time", "nice", "SUDO"])
      expect(moverOperands(`${w} mv a b`), w).toEqual(["a", "b"]);
    expect(moverOperands("_A1=x mv a b")).toEqual(["a", "b"]);
    expect(moverOperands("1A=x mv a b")).toEqual([]);
  });
});

describe("known tools", () => {
  it("server-filesystem: paths are read or written, bodies and patterns are text", () => {
    for (const tool of [
      "read_text_file",
      "read_media_file",
      "read_multiple_files",
      "list_directory",
      "directory_tree",
      "search_files",
      "get_file_info",
    ])
      expect(
        fx(tool, { path: "p", paths: ["q"], excludePatterns: ["*.x"], pattern: "*.y", other: "o" }),
        tool,
      ).toEqual([
        "read path arguments.path p",
        "read path arguments.paths[0] q",
        "read path arguments.other o",
      ]);
    expect(fx("read_file", { path: "p", head: "10", tail: "5" })).toEqual(["read path arguments.path p"]);
    expect(fx("list_directory_with_sizes", { path: "p", sortBy: "size" })).toEqual([
      "read path arguments.path p",
    ]);
    expect(fx("list_allowed_directories", { x: "y" })).toEqual(["read path arguments.x y"]);
    expect(fx("write_file", { path: "p", content: "c", mode: "m" })).toEqual(["write path arguments.path p"]);
    expect(fx("edit_file", { path: "p", edits: "e", dryRun: "d", x: "y" })).toEqual([
      "write path arguments.path p",
      "read path arguments.path p",
      "write path arguments.x y",
    ]);
    expect(fx("create_directory", { path: "p", x: "y" })).toEqual([
      "write path arguments.path p",
      "write path arguments.x y",
    ]);
    expect(containerTest("move_file", {}, false)(write("s", "arguments.source"))).toBe("place");
  });

  it("mcp-server-git: the repository is read or written, revisions and messages are text", () => {
    const reads = { git_status: {}, git_diff_unstaged: {}, git_diff_staged: {}, git_log: {} };
    for (const tool of Object.keys(reads))
      expect(fx(tool, { repo_path: "r", x: "y" }), tool).toEqual([
        "read path arguments.repo_path r",
        "read path arguments.x y",
      ]);
    expect(fx("git_diff", { repo_path: "r", target: "main" })).toEqual(["read path arguments.repo_path r"]);
    expect(fx("git_show", { repo_path: "r", revision: "HEAD" })).toEqual(["read path arguments.repo_path r"]);
    expect(
      fx("git_branch", { repo_path: "r", branch_type: "local", contains: "a", not_contains: "b" }),
    ).toEqual(["read path arguments.repo_path r"]);
    expect(fx("git_add", { repo_path: "r", files: ["f"], x: "y" })).toEqual([
      "write path arguments.repo_path r",
      "write path arguments.files[0] f",
      // What git_add stages is read too: git_diff_staged prints it next (decision 0069).
      "read path arguments.files[0] f",
      "write path arguments.x y",
    ]);
    expect(fx("git_commit", { repo_path: "r", message: "m" })).toEqual(["write path arguments.repo_path r"]);
    expect(fx("git_checkout", { repo_path: "r", branch_name: "b" })).toEqual([
      "write path arguments.repo_path r",
    ]);
    expect(fx("git_create_branch", { repo_path: "r", branch_name: "b", base_branch: "c" })).toEqual([
      "write path arguments.repo_path r",
    ]);
    expect(fx("git_reset", { repo_path: "r", x: "y" })).toEqual([
      "write path arguments.repo_path r",
      "write path arguments.x y",
    ]);
  });

  it("Desktop Commander: file paths, searched folders, and commands that run", () => {
    expect(fx("edit_block", { file_path: "f", old_string: "a", new_string: "b", x: "y" })).toEqual([
      "write path arguments.file_path f",
      "read path arguments.file_path f",
      "write path arguments.x y",
    ]);
    expect(fx("write_pdf", { path: "in", outputPath: "out", content: "c" })).toEqual([
      "read path arguments.path in",
      "write path arguments.outputPath out",
    ]);
    expect(fx("start_search", { path: "d", pattern: "p", x: "y" })).toEqual([
      "read path arguments.path d",
      "read path arguments.x y",
    ]);
    expect(fx("start_process", { command: "ls", shell: "zsh" })).toEqual([
      "exec command arguments ls",
      "write path arguments.command ls",
      "read path arguments.command ls",
      "exec path arguments.shell zsh",
    ]);
    expect(fx("interact_with_process", { input: "ls", pid: "7" })).toEqual([
      "exec command arguments ls",
      "write path arguments.input ls",
      "read path arguments.input ls",
      "write path arguments.pid 7",
      "read path arguments.pid 7",
    ]);
    expect(fx("set_config_value", { key: "k", value: "v" })).toEqual([
      "exec command arguments k",
      "write path arguments.key k",
      "read path arguments.key k",
      "write path arguments.value v",
      "read path arguments.value v",
    ]);
  });

  it("fetch, everything and blender: URLs are read, code runs", () => {
    expect(fx("fetch", { url: "https://e.com", x: "y" })).toEqual([
      "read url arguments.url https://e.com",
      "read path arguments.x y",
    ]);
    expect(fx("gzip-file-as-resource", { data: "https://e.com", name: "n", outputType: "t" })).toEqual([
      "read url arguments.data https://e.com",
      "write path arguments.name n",
    ]);
    expect(fx("execute_blender_code", { code: "import os" })).toEqual([
      "exec command arguments import os",
      "write path arguments.code import",
      "read path arguments.code import",
      "write path arguments.code os",
      "read path arguments.code os",
    ]);
    expect(
      fx("generate_hyper3d_model_via_images", { input_image_paths: ["p"], input_image_urls: ["u"] }),
    ).toEqual(["read path arguments.input_image_paths[0] p", "read path arguments.input_image_urls[0] u"]);
    expect(
      fx("generate_hunyuan3d_model", { text_prompt: "t", input_image_url: "https://e.com/i", x: "y" }),
    ).toEqual(["read url arguments.input_image_url https://e.com/i", "read path arguments.x y"]);
    expect(fx("import_generated_asset_hunyuan", { zip_file_url: "https://e.com/z", x: "y" })).toEqual([
      "read url arguments.zip_file_url https://e.com/z",
      "write path arguments.x y",
    ]);
  });

  it("shell servers: commands and stdin run, the working directory is executed in", () => {
    expect(fx("run_command", { command: "ls", workdir: "/w", stdin: "x" })).toEqual([
      "exec command arguments ls",
      "write path arguments.command ls",
      "read path arguments.command ls",
      "write path arguments.command (in arguments.workdir) /w/ls",
      "read path arguments.command (in arguments.workdir) /w/ls",
      "exec path arguments.workdir /w",
      "write path arguments.stdin x",
      "read path arguments.stdin x",
      "write path arguments.stdin (in arguments.workdir) /w/x",
      "read path arguments.stdin (in arguments.workdir) /w/x",
    ]);
    expect(fx("shell_execute", { command: "ls", directory: "/w", stdin: "x" })).toEqual([
      "exec command arguments ls",
      "write path arguments.command ls",
      "read path arguments.command ls",
      "write path arguments.command (in arguments.directory) /w/ls",
      "read path arguments.command (in arguments.directory) /w/ls",
      "exec path arguments.directory /w",
      "write path arguments.stdin x",
      "read path arguments.stdin x",
      "write path arguments.stdin (in arguments.directory) /w/x",
      "read path arguments.stdin (in arguments.directory) /w/x",
    ]);
    expect(fx("write_to_terminal", { command: "ls" })).toEqual([
      "exec command arguments ls",
      "write path arguments.command ls",
      "read path arguments.command ls",
    ]);
  });

  it("GitHub: repository paths, contents and names are not local paths", () => {
    const meta = { message: "m", branch: "b", owner: "o", repo: "r" };
    expect(fx("create_or_update_file", { path: "p", content: "c", sha: "s", ...meta, x: "y" })).toEqual([
      "write path arguments.x y",
    ]);
    expect(fx("push_files", { files: [{ path: "p" }], ...meta, x: "y" })).toEqual([
      "write path arguments.x y",
    ]);
    expect(fx("delete_file", { path: "p", ...meta, x: "y" })).toEqual(["write path arguments.x y"]);
    expect(
      fx("get_file_contents", { path: "p", owner: "o", repo: "r", ref: "f", branch: "b", x: "y" }),
    ).toEqual(["read path arguments.x y"]);
  });
});
