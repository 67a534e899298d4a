// Argument roles of the tool table, embedded JSON, command arguments and the nesting budget:
// each case is a call a policy would judge differently if the rule behind it were lost.
import { describe, expect, it } from "vitest";
import { BUDGET } from "../../../src/core/effects/budget.js";
import { commandText } from "../../../src/core/effects/exec-arguments.js";
import { extractEffects } from "../../../src/core/effects/extract.js";
import { inWorkdir } from "../../../src/core/shell/workdir.js";
import { knownTool, nameWords, verbOperation } from "../../../src/core/effects/tool-table.js";

const fx = (tool: string, args: Record<string, unknown>, exec = false) => {
  const r = extractEffects(tool, args, exec);
  if (!r.ok) throw new Error(r.error);
  return r.effects.map((e) => `${e.operation} ${e.kind} ${e.at} ${e.spelled}`);
};
const refusal = (tool: string, args: Record<string, unknown>, exec = false) => {
  const r = extractEffects(tool, args, exec);
  return r.ok ? "accepted" : r.error;
};
const nest = (inner: unknown, levels: number, wrap: (v: unknown) => unknown = (v) => [v]) => {
  let v = inner;
  for (let i = 0; i < levels; i++) v = wrap(v);
  return v;
};

describe("url and pathOrUrl roles", () => {
  it("reads a url argument as a URL, or as a local path when it is not http(s)", () => {
    // gzip-file-as-resource's `data` is fetched; its other strings are writes (fallback).
    expect(fx("gzip-file-as-resource", { data: " https://e.com/a " })).toEqual([
      "read url arguments.data https://e.com/a",
    ]);
    expect(fx("gzip-file-as-resource", { data: "file:///etc/passwd" })).toEqual([
      "read path arguments.data file:///etc/passwd",
    ]);
    expect(fx("import_generated_asset_hunyuan", { zip_file_url: "/tmp/a b\nc.zip" })).toEqual([
      "read path arguments.zip_file_url /tmp/a b\nc.zip",
    ]);
  });

  it("takes Desktop Commander's read_file path as one value when isUrl is set", () => {
    expect(fx("read_file", { path: " https://e.com/x ", isUrl: true })).toEqual([
      "read url arguments.path https://e.com/x",
    ]);
    // Declared as a path: not split as JSON, not skipped as prose.
    expect(fx("read_file", { path: '["a","b"]', isUrl: true })).toEqual([
      'read path arguments.path ["a","b"]',
    ]);
    expect(fx("read_file", { path: "a\nb", isUrl: true, extra: "x" })).toEqual([
      "read path arguments.path a\nb",
      "read path arguments.extra x",
    ]);
  });

  it("applies the isUrl form only to read_file, and only when isUrl is true", () => {
    expect(fx("read_file", { path: "https://e.com/x" })).toEqual([
      "read path arguments.path https://e.com/x",
    ]);
    // A string "true" is not the flag (and, undeclared, is itself a read candidate).
    expect(fx("read_file", { path: "https://e.com/x", isUrl: "true" })).toEqual([
      "read path arguments.path https://e.com/x",
      "read path arguments.isUrl true",
    ]);
    expect(fx("write_file", { path: "https://e.com/x", isUrl: true })).toEqual([
      "write path arguments.path https://e.com/x",
    ]);
    expect(knownTool("frob", { isUrl: true })).toBeUndefined();
  });
});

describe("declared read, write and exec roles", () => {
  it("uses the declared operation, not the tool's fallback", () => {
    // write_pdf reads `path` and writes `outputPath`.
    expect(fx("write_pdf", { path: "in.md", outputPath: "out.pdf" })).toEqual([
      "read path arguments.path in.md",
      "write path arguments.outputPath out.pdf",
    ]);
  });

  it("judges a declared path even when it looks like prose, JSON or blank", () => {
    expect(fx("write_file", { path: "a\nb" })).toEqual(["write path arguments.path a\nb"]);
    expect(fx("write_file", { path: '{"x":"/etc/passwd"}' })).toEqual([
      'write path arguments.path {"x":"/etc/passwd"}',
    ]);
    expect(fx("start_process", { command: "ls", shell: "/bin/zsh" })).toContain(
      "exec path arguments.shell /bin/zsh",
    );
    expect(fx("start_process", { command: "ls", shell: "/bin/zsh\n-l" })).toContain(
      "exec path arguments.shell /bin/zsh\n-l",
    );
    expect(fx("run_command", { command: "ls", workdir: " " })).toContain("exec path arguments.workdir  ");
  });

  it("does not judge text arguments however deep they are nested", () => {
    expect(refusal("write_file", { path: "a", content: nest("x", 80) })).toBe("accepted");
    expect(fx("write_file", { path: "a", content: nest("~/.ssh/id_rsa", 3, (v) => ({ k: v })) })).toEqual([
      "write path arguments.path a",
    ]);
  });
});

describe("generic strings", () => {
  it("finds nothing in values that are not strings, lists or objects", () => {
    // In-process callers may leave optional arguments undefined; JSON gives numbers, booleans, null.
    expect(fx("get_frob", { a: undefined, b: 5, c: true, d: null, e: [undefined, 1] })).toEqual([]);
  });

  it("treats numbers and literals spelled as strings as names, not JSON", () => {
    expect(fx("get_frob", { a: "42", b: "true", c: "null" })).toEqual([
      "read path arguments.a 42",
      "read path arguments.b true",
      "read path arguments.c null",
    ]);
  });

  it("walks a JSON array inside a string", () => {
    expect(fx("get_frob", { j: ' ["/x", "~/y"] ' })).toEqual([
      "read path arguments.j<json>[0] /x",
      "read path arguments.j<json>[1] ~/y",
    ]);
    expect(fx("get_frob", { j: '{"a":1} tail' })).toEqual(['read path arguments.j {"a":1} tail']);
  });
});

describe("exec commands", () => {
  it("shows the table's declared command argument, else the usual command names, else the tool", () => {
    expect(fx("set_config_value", { key: "allowedDirectories", value: "/" })[0]).toBe(
      "exec command arguments allowedDirectories",
    );
    // start_process without a command: its shell is not the command.
    expect(fx("start_process", { shell: "/bin/bash" })[0]).toBe("exec command arguments start_process");
    expect(fx("run_it", { command: ["ls", 5], cmd: "pwd" }, true)[0]).toBe("exec command arguments pwd");
    expect(fx("run_it", { command: ["ls", 5] }, true)[0]).toBe("exec command arguments run_it");
  });

  it("reads JSON inside a command, and odd argument names, as command words too", () => {
    expect(fx("run_it", { command: '{"k":"cat /etc/shadow"}' }, true)).toEqual([
      'exec command arguments {"k":"cat /etc/shadow"}',
      'write path arguments.command<json>{key "k"} k',
      'read path arguments.command<json>{key "k"} k',
      "write path arguments.command<json>.k cat",
      "read path arguments.command<json>.k cat",
      "write path arguments.command<json>.k /etc/shadow",
      "read path arguments.command<json>.k /etc/shadow",
      "write path arguments.command {k:cat",
      "read path arguments.command {k:cat",
      "write path arguments.command /etc/shadow}",
      "read path arguments.command /etc/shadow}",
      // As a shell reads it: one word, and its quoted literals on their own (decision 0062).
      "write path arguments.command {k:cat /etc/shadow}",
      "read path arguments.command {k:cat /etc/shadow}",
      "write path arguments.command cat /etc/shadow",
      "read path arguments.command cat /etc/shadow",
    ]);
    expect(fx("run_it", { "cat ~/.ssh/id_rsa": 1 }, true)).toEqual([
      "exec command arguments run_it",
      'write path arguments{key "cat ~/.ssh/id_rsa"} cat',
      'read path arguments{key "cat ~/.ssh/id_rsa"} cat',
      'write path arguments{key "cat ~/.ssh/id_rsa"} ~/.ssh/id_rsa',
      'read path arguments{key "cat ~/.ssh/id_rsa"} ~/.ssh/id_rsa',
    ]);
  });

  it("gives command text only for strings and lists of strings", () => {
    expect(commandText("ls -l")).toBe("ls -l");
    expect(commandText(["ls", "-l"])).toBe("ls -l");
    expect(commandText(["ls", 1])).toBeUndefined();
    expect(commandText(5)).toBeUndefined();
  });

  it("joins a working directory with one separator however many it ends with", () => {
    expect(inWorkdir("/a//", "b")).toBe("/a/b");
    expect(inWorkdir("C:\\a\\\\", "b")).toBe("C:\\a\\b");
  });
});

describe("nesting budget", () => {
  it("counts object levels like array levels", () => {
    const obj = (v: unknown) => ({ k: v });
    expect(refusal("frob", { d: nest("x", 47, obj) })).toBe("accepted");
    expect(refusal("frob", { d: nest("x", 48, obj) })).toBe(
      "too large to judge: arguments nested deeper than 48 levels",
    );
  });

  it("counts each embedded JSON document as one more level", () => {
    const json = JSON.stringify(nest("x", 20));
    expect(refusal("frob", { d: nest(json, 26) })).toBe("accepted");
    expect(refusal("frob", { d: nest(json, 28) })).toBe(
      "too large to judge: arguments nested deeper than 48 levels",
    );
    expect(refusal("run_it", { d: nest(json, 26) }, true)).toBe("accepted");
    expect(refusal("run_it", { d: nest(json, 28) }, true)).toBe(
      "too large to judge: arguments nested deeper than 48 levels",
    );
  });

  it("accepts a plain command word at the deepest level", () => {
    expect(refusal("run_it", { d: nest("ls", 47) }, true)).toBe("accepted");
  });

  it("accepts exactly the character budget", () => {
    const half = "x".repeat(BUDGET.maxChars / 2);
    expect(refusal("frob", { a: half, b: `${half}` })).toBe("accepted");
  });
});

describe("errors that are not refusals", () => {
  it("lets an unexpected failure propagate instead of reporting it as a refusal", () => {
    const args = {
      get boom(): string {
        throw new TypeError("getter failed");
      },
    };
    expect(() => extractEffects("frob", args, false)).toThrow("getter failed");
  });
});

describe("tool name words", () => {
  it("splits camelCase, snake_case and kebab-case names", () => {
    expect(nameWords("getThing")).toEqual(["get", "thing"]);
    expect(nameWords("_read-file.v2_")).toEqual(["read", "file", "v2"]);
    expect(verbOperation("getThing")).toBe("read");
    expect(verbOperation("fileRemove")).toBe("write");
  });
});
