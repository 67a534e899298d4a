import { describe, expect, it } from "vitest";
import { readPolicy } from "../../src/config/policy-file.js";
import { LINUX, useTempHome } from "../helpers/policy.js";

useTempHome();

// Real tool lists (reference doc §9): which are exec-class and which taint the session.
const FILESYSTEM = [
  "read_file",
  "read_text_file",
  "read_media_file",
  "read_multiple_files",
  "write_file",
  "edit_file",
  "create_directory",
  "list_directory",
  "list_directory_with_sizes",
  "directory_tree",
  "move_file",
  "search_files",
  "get_file_info",
  "list_allowed_directories",
];
const GIT = [
  "git_status",
  "git_diff_unstaged",
  "git_diff_staged",
  "git_diff",
  "git_log",
  "git_show",
  "git_branch",
  "git_commit",
  "git_create_branch",
  "git_checkout",
  "git_add",
  "git_reset",
];
const DESKTOP_COMMANDER_EXEC = ["start_process", "interact_with_process", "set_config_value"];
const DESKTOP_COMMANDER_OTHER = [
  "read_process_output",
  "force_terminate",
  "kill_process",
  "list_sessions",
  "list_processes",
  "read_file",
  "read_multiple_files",
  "write_file",
  "write_pdf",
  "edit_block",
  "create_directory",
  "list_directory",
  "get_file_info",
  "move_file",
  "start_search",
  "get_more_search_results",
  "stop_search",
  "list_searches",
  "get_config",
];
const GITHUB_REMOTE_CONTENT = [
  "search_code",
  "search_repositories",
  "search_issues",
  "get_issue",
  "list_issues",
  "get_issue_comments",
  "get_pull_request",
  "get_pull_request_files",
  "list_pull_requests",
  "get_file_contents",
];
const GITHUB_EXEC = ["actions_run_trigger", "run_workflow"];
const GITHUB_NOT_EXEC = [
  "get_workflow_run",
  "list_workflow_runs",
  "create_or_update_file",
  "push_files",
  "delete_file",
  "get_me",
];
const OTHER_EXEC = [
  "execute_blender_code",
  "run_command",
  "shell_execute",
  "write_to_terminal",
  "send_control_character",
  "bash",
];

describe("the default policy against real servers' tools", () => {
  const policy = readPolicy(undefined, LINUX);

  it("sees no exec tool and no taint source in server-filesystem", () => {
    expect(FILESYSTEM.filter((t) => policy.execGlob(t) !== undefined)).toEqual([]);
    expect(FILESYSTEM.filter((t) => policy.taintSource(t, "filesystem") !== undefined)).toEqual([]);
  });

  it("sees no exec tool and no taint source in mcp-server-git", () => {
    expect(GIT.filter((t) => policy.execGlob(t) !== undefined)).toEqual([]);
    expect(GIT.filter((t) => policy.taintSource(t, "git") !== undefined)).toEqual([]);
  });

  it("classes Desktop Commander's process and self-configuration tools as exec, and only those", () => {
    expect(DESKTOP_COMMANDER_EXEC.map((t) => policy.execGlob(t))).toEqual([
      "start_process",
      "interact_with_process",
      "set_config_value",
    ]);
    expect(DESKTOP_COMMANDER_OTHER.filter((t) => policy.execGlob(t) !== undefined)).toEqual([]);
    expect(
      DESKTOP_COMMANDER_OTHER.filter((t) => policy.taintSource(t, "desktop-commander") !== undefined),
    ).toEqual([]);
  });

  it("makes fetch a taint source, by tool and by server name", () => {
    expect(policy.taintSource("fetch")).toBe("*fetch*");
    expect(policy.taintSource("fetch", "fetch")).toBe("*fetch*");
    expect(policy.execGlob("fetch")).toBeUndefined();
  });

  it("taints on GitHub's remote content, including search_code, and execs its workflow triggers", () => {
    expect(GITHUB_REMOTE_CONTENT.filter((t) => policy.taintSource(t) === undefined)).toEqual([]);
    expect(GITHUB_EXEC.map((t) => policy.execGlob(t))).toEqual(["actions_run_trigger", "run_*"]);
    expect(GITHUB_NOT_EXEC.filter((t) => policy.execGlob(t) !== undefined)).toEqual([]);
    // A server named github taints with every tool, even ones whose names say nothing.
    expect(policy.taintSource("get_me", "github")).toBe("github");
  });

  it("classes shell, terminal and code-running tools of other servers as exec", () => {
    expect(OTHER_EXEC.filter((t) => policy.execGlob(t) === undefined)).toEqual([]);
  });

  it("matches tool names without regard to case", () => {
    expect(policy.execGlob("RunScript")).toBe("runscript");
    expect(policy.execGlob("Execute_Command")).toBe("*exec*");
    expect(policy.execGlob("BASH")).toBe("bash");
    expect(policy.taintSource("WebFetch")).toBe("*fetch*");
    expect(policy.taintSource("Search_Files")).toBeUndefined();
  });

  it("lets taint.exclude beat a matching source", () => {
    expect(policy.taintSource("search_files")).toBeUndefined();
    expect(policy.taintSource("start_search")).toBeUndefined();
    expect(policy.taintSource("web_search")).toBe("*web*");
  });

  it("confirms exec when clean and denies it when tainted; signatures on; env untouched", () => {
    expect(policy.exec).toEqual({ action: "confirm", actionIfTainted: "deny" });
    expect(policy.signatures).toBe(true);
    expect(policy.envDeny).toEqual([]);
  });
});
