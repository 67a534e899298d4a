import { describe, expect, it } from "vitest";
import { call, judgeOf } from "../../helpers/judge.js";

// A tool that moves, copies or edits a file reads it too; paths.deny_read must see that read, and
// below a folder moved or copied away as a whole (docs/policy.md, "Folders moved, copied or
// removed as a whole").

const POLICY = `version: 1
paths:
  deny: ["~/.ssh/**"]
  deny_read: ["~/.vault-token", "~/.local/share/keyrings/**", "**/*.pem"]
`;
const judge = (tool: string, args: Record<string, unknown>) =>
  judgeOf({ text: POLICY }).judge("tools/call", call(tool, args));

describe("reads hidden in writing tools", () => {
  it("edit_file and edit_block read the file they change (a dry run answers with its old lines)", () => {
    expect(judge("edit_file", { path: "~/.vault-token", edits: [], dryRun: true }).rule).toBe(
      "paths.deny_read ~/.vault-token",
    );
    expect(judge("edit_block", { file_path: "/w/server.pem", old_string: "a", new_string: "b" }).rule).toBe(
      "paths.deny_read **/*.pem",
    );
  });

  it("move_file reads its source, not its destination", () => {
    expect(judge("move_file", { source: "~/.vault-token", destination: "/w/vt.txt" }).rule).toBe(
      "paths.deny_read ~/.vault-token",
    );
    expect(judge("move_file", { source: "/w/a.txt", destination: "~/.vault-token" }).verdict).toBe("allow");
  });

  it("an unknown copying tool reads what it names", () => {
    expect(judge("copy_file", { from: "~/.vault-token", to: "/w/x" }).rule).toBe(
      "paths.deny_read ~/.vault-token",
    );
    expect(judge("upload", { file: "/w/key.pem" }).rule).toBe("paths.deny_read **/*.pem");
  });
});

describe("a folder moved or copied away as a whole", () => {
  it("meets deny_read below it, and says it moves the folder away", () => {
    const d = judge("move_file", { source: "~/.local", destination: "/w/loc" });
    expect(d.verdict).toBe("deny");
    expect(d.rule).toBe("paths.deny_read ~/.local/share/keyrings/**");
    expect(d.reason).toBe(
      "move_file would move or copy away /home/user/.local as a whole, a folder that holds paths matched by paths.deny_read ~/.local/share/keyrings/**",
    );
  });

  it("does not count a name pattern any folder could hold, nor a removal", () => {
    expect(judge("move_file", { source: "/w/certs", destination: "/w/old" }).verdict).toBe("allow");
    expect(judge("delete_directory", { path: "~/.local" }).verdict).toBe("allow");
  });
});
