import { describe, expect, it } from "vitest";
import { BUDGET } from "../../../src/core/effects/budget.js";
import { extractEffects } from "../../../src/core/effects/extract.js";
import { commandTokens } from "../../../src/core/effects/command-tokens.js";
import { verbOperation } from "../../../src/core/effects/tool-table.js";

const ops = (tool: string, args: Record<string, unknown>, exec = false) => {
  const r = extractEffects(tool, args, exec);
  if (!r.ok) throw new Error(r.error);
  return r.effects.map((e) => `${e.operation} ${e.kind} ${e.spelled}`);
};

describe("effect extraction", () => {
  it("uses the known table: move_file's source is read and written, its destination written", () => {
    expect(ops("move_file", { source: "a.txt", destination: "~/.ssh/authorized_keys" })).toEqual([
      "write path a.txt",
      "read path a.txt",
      "write path ~/.ssh/authorized_keys",
    ]);
  });

  it("reads every element of read_multiple_files paths", () => {
    expect(ops("read_multiple_files", { paths: ["x", "~/.aws/credentials"] })).toEqual([
      "read path x",
      "read path ~/.aws/credentials",
    ]);
  });

  it("does not treat declared file content as a path", () => {
    expect(ops("write_file", { path: "notes.md", content: "~/.ssh/id_rsa" })).toEqual([
      "write path notes.md",
    ]);
  });

  it("keeps bare names such as id_rsa and Makefile as candidates", () => {
    expect(ops("frobnicate", { target: "Makefile", other: "id_rsa" })).toContain("write path Makefile");
    expect(ops("frobnicate", { target: "Makefile", other: "id_rsa" })).toContain("write path id_rsa");
  });

  it("visits object keys and nested arrays at any depth", () => {
    const found = ops("update_things", { files: { "~/.bashrc": "x" }, deep: [[[{ a: ["~/.aws/config"] }]]] });
    expect(found).toContain("write path ~/.bashrc");
    expect(found).toContain("write path ~/.aws/config");
  });

  it("walks JSON embedded in a string argument", () => {
    expect(ops("do_it", { payload: JSON.stringify({ nested: { target: "~/.ssh/config" } }) })).toContain(
      "write path ~/.ssh/config",
    );
  });

  it("turns http(s) strings into url reads and keeps file:// as paths", () => {
    const found = ops("get_page", { url: "https://example.com/x", other: "file:///etc/passwd" });
    expect(found).toEqual(
      expect.arrayContaining(["read url https://example.com/x", "read path file:///etc/passwd"]),
    );
  });

  it("treats Desktop Commander read_file with isUrl as a URL fetch", () => {
    expect(ops("read_file", { path: "https://evil.example/p", isUrl: true })).toEqual([
      "read url https://evil.example/p",
    ]);
    expect(ops("read_file", { path: "/etc/hosts" })).toEqual(["read path /etc/hosts"]);
  });

  it("skips multi-line prose in generic positions but not single-line strings", () => {
    expect(ops("post_note", { body: "line one\nsee ~/.ssh/config" })).toEqual([]);
    expect(ops("post_note", { body: "~/.ssh/config" })).toEqual([
      "write path ~/.ssh/config",
      "read path ~/.ssh/config",
    ]);
  });

  it("gives exec-class tools one exec effect and judges command words as writes", () => {
    const found = ops("run_command", { command: "cat ~/.ssh/id_rsa > /tmp/x; curl https://e.example" });
    expect(found[0]).toBe("exec command cat ~/.ssh/id_rsa > /tmp/x; curl https://e.example");
    expect(found).toEqual(
      expect.arrayContaining(["write path ~/.ssh/id_rsa", "write path /tmp/x", "read url https://e.example"]),
    );
  });

  it("judges table-declared exec tools even when no exec glob names them", () => {
    expect(ops("start_process", { command: "echo hi >> ~/.bashrc", timeout_ms: 5 })).toEqual(
      expect.arrayContaining(["exec command echo hi >> ~/.bashrc", "write path ~/.bashrc"]),
    );
  });

  it("refuses to judge over budget instead of skipping", () => {
    const many = Array.from({ length: BUDGET.maxStrings + 1 }, (_, i) => `f${i}`);
    const r = extractEffects("x", { many }, false);
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.error).toMatch(/too large to judge/);
    let deep: unknown = "~/.ssh/id_rsa";
    for (let i = 0; i < BUDGET.maxDepth + 2; i++) deep = [deep];
    expect(extractEffects("x", { deep }, false).ok).toBe(false);
    expect(extractEffects("x", { big: "a".repeat(BUDGET.maxChars + 1) }, false).ok).toBe(false);
  });

  it("finds a denied path after 10,000 harmless strings", () => {
    const args = {
      list: [...Array.from({ length: 10_000 }, (_, i) => `file-${i}.txt`), "~/.ssh/authorized_keys"],
    };
    expect(ops("write_many", args)).toContain("write path ~/.ssh/authorized_keys");
  });
});

describe("operations from tool names", () => {
  it("reads for read verbs, writes for write verbs, and writes when unsure", () => {
    expect(verbOperation("get_file_info")).toBe("read");
    expect(verbOperation("listThings")).toBe("read");
    expect(verbOperation("read_and_delete")).toBe("write");
    expect(verbOperation("frobnicate")).toBe("write");
    expect(verbOperation("saveDocument")).toBe("write");
  });
});

describe("command words", () => {
  it("splits on shell punctuation, strips quotes, keeps option values", () => {
    expect(
      commandTokens(`echo "x" > '~/.bashrc' && cp a --target-directory=/etc $(cat ~/.ssh/id_rsa)`),
    ).toEqual(expect.arrayContaining(["~/.bashrc", "/etc", "~/.ssh/id_rsa", "a"]));
    expect(commandTokens("rm -rf /")).toEqual(["rm", "/"]);
  });
});

describe("prose", () => {
  it("does not let a trailing newline hide a path", () => {
    const r = extractEffects("get_frob", { p: "~/.bashrc\n" }, false);
    expect(r.ok && r.effects.map((e) => e.spelled)).toEqual(["~/.bashrc\n"]);
  });
});

describe("embedded JSON", () => {
  it("refuses embedded JSON with duplicate names, since the server may read either value", () => {
    const r = extractEffects("do_it", { payload: '{"path":"~/.ssh/x","path":"notes.md"}' }, false);
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.error).toMatch(/duplicate key "path"/);
  });

  it("treats bracketed text that is not JSON as an ordinary string", () => {
    expect(ops("get_it", { note: "[draft]" })).toEqual(["read path [draft]"]);
  });
});

describe("exec working directory", () => {
  it("judges relative command words in the call's own working directory too", () => {
    const found = ops("run_command", { command: "echo x >> .bashrc", workdir: "~" });
    expect(found).toEqual(expect.arrayContaining(["write path .bashrc", "write path ~/.bashrc"]));
    expect(found).not.toContain("write path ~/~");
    const win = ops("shell_exec", { command: "type nul > .env", cwd: "C:\\proj\\" }, true);
    expect(win).toContain("write path C:\\proj\\.env");
  });
});
