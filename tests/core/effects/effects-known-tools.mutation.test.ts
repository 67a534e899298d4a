// How each well-known server's tools read their arguments (reference servers, Desktop Commander,
// the shell and GitHub servers). Every row names an argument whose role differs from its tool's
// fallback, so a table entry that lost its role would be read the generic way instead, and this
// spec would notice. The value is a path-like string on purpose: free text and remote paths must
// never become local path effects.
import { describe, expect, it } from "vitest";
import { extractEffects } from "../../../src/core/effects/extract.js";

/** What each role makes of "/srv/p" (or a URL for url roles), with the policy's exec class off. */
const EXPECTED: Record<string, string> = {
  text: "",
  remote: "",
  read: "read path",
  url: "read url",
  // A command word is judged as read and written (decision 0062).
  command: "exec command, write path, read path",
};

const ROWS: ReadonlyArray<[tool: string, arg: string, role: keyof typeof EXPECTED]> = [
  ["read_file", "head", "text"],
  ["read_file", "tail", "text"],
  ["read_text_file", "excludePatterns", "text"],
  ["read_text_file", "pattern", "text"],
  ["read_media_file", "excludePatterns", "text"],
  ["read_media_file", "pattern", "text"],
  ["read_multiple_files", "excludePatterns", "text"],
  ["read_multiple_files", "pattern", "text"],
  ["list_directory", "excludePatterns", "text"],
  ["list_directory", "pattern", "text"],
  ["list_directory_with_sizes", "sortBy", "text"],
  ["directory_tree", "excludePatterns", "text"],
  ["directory_tree", "pattern", "text"],
  ["search_files", "excludePatterns", "text"],
  ["search_files", "pattern", "text"],
  ["get_file_info", "excludePatterns", "text"],
  ["get_file_info", "pattern", "text"],
  ["write_file", "content", "text"],
  ["write_file", "mode", "text"],
  ["edit_file", "edits", "text"],
  ["edit_file", "dryRun", "text"],
  ["git_diff", "target", "text"],
  ["git_show", "revision", "text"],
  ["git_branch", "branch_type", "text"],
  ["git_branch", "contains", "text"],
  ["git_branch", "not_contains", "text"],
  ["git_commit", "message", "text"],
  ["git_checkout", "branch_name", "text"],
  ["git_create_branch", "branch_name", "text"],
  ["git_create_branch", "base_branch", "text"],
  ["edit_block", "old_string", "text"],
  ["edit_block", "new_string", "text"],
  ["write_pdf", "path", "read"],
  ["write_pdf", "content", "text"],
  ["start_search", "pattern", "text"],
  ["start_process", "command", "command"],
  ["interact_with_process", "input", "command"],
  ["set_config_value", "key", "command"],
  ["set_config_value", "value", "command"],
  ["fetch", "url", "url"],
  ["gzip-file-as-resource", "data", "url"],
  ["gzip-file-as-resource", "outputType", "text"],
  ["execute_blender_code", "code", "command"],
  ["generate_hyper3d_model_via_images", "input_image_urls", "url"],
  ["generate_hunyuan3d_model", "text_prompt", "text"],
  ["generate_hunyuan3d_model", "input_image_url", "url"],
  ["import_generated_asset_hunyuan", "zip_file_url", "url"],
  ["run_command", "command", "command"],
  ["run_command", "stdin", "command"],
  ["shell_execute", "command", "command"],
  ["shell_execute", "stdin", "command"],
  ["write_to_terminal", "command", "command"],
  ["create_or_update_file", "path", "remote"],
  ["create_or_update_file", "content", "text"],
  ["create_or_update_file", "message", "text"],
  ["create_or_update_file", "branch", "text"],
  ["create_or_update_file", "owner", "text"],
  ["create_or_update_file", "repo", "text"],
  ["create_or_update_file", "sha", "text"],
  ["push_files", "files", "remote"],
  ["push_files", "message", "text"],
  ["push_files", "branch", "text"],
  ["push_files", "owner", "text"],
  ["push_files", "repo", "text"],
  ["delete_file", "path", "remote"],
  ["delete_file", "message", "text"],
  ["delete_file", "branch", "text"],
  ["delete_file", "owner", "text"],
  ["delete_file", "repo", "text"],
  ["get_file_contents", "path", "remote"],
  ["get_file_contents", "owner", "text"],
  ["get_file_contents", "repo", "text"],
  ["get_file_contents", "ref", "text"],
  ["get_file_contents", "branch", "text"],
];

describe("known tools read each argument by its role", () => {
  it.each(ROWS)("%s reads %s as %s", (tool, arg, role) => {
    const value = role === "url" ? "https://example.com/x" : "/srv/p";
    // A GitHub path is remote only when the call names its repository (decision 0058).
    const repository = role === "remote" ? { owner: "o", repo: "r" } : {};
    const r = extractEffects(tool, { ...repository, [arg]: value }, false);
    if (!r.ok) throw new Error(r.error);
    expect(r.effects.map((e) => `${e.operation} ${e.kind}`).join(", ")).toBe(EXPECTED[role]);
  });
});

/** What an argument the table does not list becomes, by the tool's fallback. */
const FALLBACK: Record<string, string> = {
  read: "read path",
  write: "write path",
  exec: "exec command, write path, read path",
};

const FALLBACKS: ReadonlyArray<[tool: string, fallback: keyof typeof FALLBACK]> = [
  ["read_file", "read"],
  ["read_text_file", "read"],
  ["read_media_file", "read"],
  ["read_multiple_files", "read"],
  ["list_directory", "read"],
  ["list_directory_with_sizes", "read"],
  ["directory_tree", "read"],
  ["search_files", "read"],
  ["get_file_info", "read"],
  ["list_allowed_directories", "read"],
  ["write_file", "write"],
  ["edit_file", "write"],
  ["create_directory", "write"],
  ["move_file", "write"],
  ["git_status", "read"],
  ["git_diff_unstaged", "read"],
  ["git_diff_staged", "read"],
  ["git_diff", "read"],
  ["git_log", "read"],
  ["git_show", "read"],
  ["git_branch", "read"],
  ["git_add", "write"],
  ["git_commit", "write"],
  ["git_checkout", "write"],
  ["git_create_branch", "write"],
  ["git_reset", "write"],
  ["edit_block", "write"],
  ["write_pdf", "write"],
  ["start_search", "read"],
  ["start_process", "exec"],
  ["interact_with_process", "exec"],
  ["set_config_value", "exec"],
  ["fetch", "read"],
  ["gzip-file-as-resource", "write"],
  ["execute_blender_code", "exec"],
  ["generate_hyper3d_model_via_images", "read"],
  ["generate_hunyuan3d_model", "read"],
  ["import_generated_asset_hunyuan", "write"],
  ["run_command", "exec"],
  ["shell_execute", "exec"],
  ["write_to_terminal", "exec"],
  ["create_or_update_file", "write"],
  ["push_files", "write"],
  ["delete_file", "write"],
  ["get_file_contents", "read"],
];

describe("known tools read an argument they do not list by their fallback", () => {
  it.each(FALLBACKS)("%s falls back to %s", (tool, fallback) => {
    const r = extractEffects(tool, { zz_unlisted: "/srv/p" }, false);
    if (!r.ok) throw new Error(r.error);
    expect(r.effects.map((e) => `${e.operation} ${e.kind}`).join(", ")).toBe(FALLBACK[fallback]);
  });
});
