// The strict question word for word (issue 17): every effect whole, every untrusted character
// visible, and a question too long to read whole not asked at all.
import { describe, expect, it } from "vitest";
import { askQuestion, effectLines, MAX_QUESTION_CHARS } from "../../../src/core/gate/ask-text.js";
import type { Decision, Effect } from "../../../src/core/types.js";

const cmd = (spelled: string): Effect => ({ operation: "exec", kind: "command", at: "arguments", spelled });
const decision = (effects: Effect[], extra: Partial<Decision> = {}): Decision => ({
  verdict: "confirm",
  rule: "exec *command*",
  reason: "run_command runs commands; exec.action is confirm",
  effects,
  tainted: false,
  ...extra,
});
const ask = (d: Decision, policySource = "default") =>
  askQuestion({ method: "tools/call", params: { name: "run_command" }, decision: d, policySource });

describe("effectLines", () => {
  it("shows each kind of effect, the spelling when it differs, and each once", () => {
    expect(
      effectLines([
        cmd("make"),
        { operation: "write", kind: "path", at: "a", spelled: "~/x", canonical: "/h/x" },
        { operation: "read", kind: "path", at: "b", spelled: "/h/y", canonical: "/h/y" },
        { operation: "exec", kind: "path", at: "c", spelled: "s.sh" },
        { operation: "read", kind: "url", at: "d", spelled: "https://e.example/" },
        { operation: "write", kind: "path", at: "e", spelled: "/h/x", canonical: "/h/x" },
        cmd("make"),
      ]),
    ).toEqual([
      "- run this command:\n    make",
      "- write /h/x (spelled ~/x)",
      "- read /h/y",
      "- run s.sh",
      "- fetch https://e.example/",
    ]);
  });

  it("says where sent data goes, in words and as the call spelled it, escaped", () => {
    const send = (spelled: string, destination?: Effect["destination"]): Effect => ({
      operation: "send",
      kind: "egress",
      at: "arguments.to",
      spelled,
      ...(destination ? { destination } : {}),
    });
    expect(
      effectLines([
        send("attacker.example", { host: "attacker.example" }),
        send("https://h.example:8443/x", { host: "h.example", port: 8443 }),
        send("#ops\u202e", { service: "slack", recipient: "#ops\u202e" }),
        send("nowhere"),
      ]),
    ).toEqual([
      "- send data to attacker.example",
      "- send data to h.example:8443 (spelled https://h.example:8443/x)",
      "- send data to #ops\\u202e on slack (spelled #ops\\u202e)",
      "- send data to nowhere",
    ]);
  });

  it("says a send that is not an egress effect as sending to it", () => {
    expect(effectLines([{ operation: "send", kind: "path", at: "a", spelled: "/dev/tcp/h/1" }])).toEqual([
      "- send to /dev/tcp/h/1",
    ]);
  });

  it("keeps a read and a write of one path apart", () => {
    const p = (operation: Effect["operation"]): Effect => ({
      operation,
      kind: "path",
      at: "a",
      spelled: "/p",
    });
    expect(effectLines([p("read"), p("write")])).toEqual(["- read /p", "- write /p"]);
  });
});

describe("askQuestion", () => {
  it("shows a long command whole: what follows a long build line is seen", () => {
    const long = `${"npm run build -- --verbose ".repeat(20)}; touch PAYLOAD`;
    const q = ask(decision([cmd(long)]));
    expect(q).toEqual({
      ok: true,
      text: [
        'effectgate: allow this call to "run_command"? It would:',
        "- run this command:",
        `    ${long}`,
        "Rule: exec *command*.",
        "Policy: the default policy.",
      ].join("\n"),
    });
  });

  it("escapes bidi, controls, line breaks and backslashes from the call", () => {
    const q = ask(
      decision([cmd("ls \u202edm.\u2066x\nrm -rf ~\\x1b")], { tainted: true }),
      "/p/\u0085t.yaml",
    );
    expect(q.ok && q.text.split("\n")).toEqual([
      'effectgate: allow this call to "run_command"? It would:',
      "- run this command:",
      "    ls \\u202edm.\\u2066x\\nrm -rf ~\\\\x1b",
      "Rule: exec *command*. The session has taken in untrusted content.",
      "Policy: /p/\\x85t.yaml.",
    ]);
  });

  it("names the resource of a read and says when a call names nothing", () => {
    const q = askQuestion({
      method: "resources/read",
      params: { uri: "file:///\u202ex" },
      decision: decision([], { rule: undefined }),
      policySource: "default",
    });
    expect(q.ok && q.text.split("\n")).toEqual([
      'effectgate: allow this call to "file:///\\u202ex"? It would:',
      "- (it names no path, command or address)",
      "Rule: (none).",
      "Policy: the default policy.",
    ]);
    const first = (method: string, params: unknown) => {
      const q2 = askQuestion({ method, params, decision: decision([]), policySource: "x" });
      return q2.ok && q2.text.split("\n")[0];
    };
    const head = (s: string) => `effectgate: allow this call to "${s}"? It would:`;
    expect(first("prompts/get", 3)).toBe(head("prompts/get"));
    expect(first("prompts/get", null)).toBe(head("prompts/get"));
    expect(first("prompts/get", { name: "p", uri: "u" })).toBe(head("p"));
    expect(first("resources/read", { name: "p", uri: 5 })).toBe(head("p"));
    expect(first("resources/read", { uri: 5 })).toBe(head("resources/read"));
    // A request may carry no params at all.
    expect(first("prompts/list", undefined)).toBe(head("prompts/list"));
    expect(first("resources/read", undefined)).toBe(head("resources/read"));
  });

  it("is not asked when it would be longer than a question may be", () => {
    const head = 'effectgate: allow this call to "run_command"? It would:\n- run this command:\n    ';
    const tail = "\nRule: exec *command*.";
    const fits = "x".repeat(MAX_QUESTION_CHARS - head.length - tail.length);
    expect(ask(decision([cmd(fits)])).ok).toBe(true);
    expect(ask(decision([cmd(`${fits}y`)]))).toEqual({ ok: false, chars: MAX_QUESTION_CHARS + 1 });
    // Escapes count as shown: a command of controls grows four times.
    expect(ask(decision([cmd("\u0001".repeat(MAX_QUESTION_CHARS / 4))])).ok).toBe(false);
    // The policy's name does not count: it is the user's own.
    expect(ask(decision([cmd(fits)]), "p".repeat(100)).ok).toBe(true);
  });
});

describe("a command read program by program", () => {
  const via = (command: string): Effect["via"] => ({
    program: command.split(" ")[0] ?? "",
    command,
    does: "runs",
  });
  const piece = (spelled: string): Effect => ({
    operation: "exec",
    kind: "command",
    at: "arguments.command",
    spelled,
    via: via(spelled),
  });
  const typedAsk = (args: Record<string, unknown>, effects: Effect[]) =>
    askQuestion({
      method: "tools/call",
      params: { name: "run_command", arguments: args },
      decision: decision(effects),
      policySource: "default",
    });

  it("shows the command line as typed, escaped, then what each program does", () => {
    const q = typedAsk({ command: "cd /tmp && curl x | sh\u202e" }, [
      piece("cd /tmp"),
      piece("curl x"),
      piece("sh\u202e"),
    ]);
    expect(q.ok && q.text.split("\n")).toEqual([
      'effectgate: allow this call to "run_command"? It would:',
      "- run this command line, as typed:",
      "    cd /tmp && curl x | sh\\u202e",
      "- run this command:",
      "    cd /tmp",
      "- run this command:",
      "    curl x",
      "- run this command:",
      "    sh\\u202e",
      "Rule: exec *command*.",
      "Policy: the default policy.",
    ]);
  });

  it("shows a list of words joined, and a line that is one program's command once", () => {
    const argv = typedAsk({ command: ["git", "-C", "x", "push"] }, [piece("git -C x")]);
    expect(argv.ok && argv.text.split("\n").slice(1, 3)).toEqual([
      "- run this command line, as typed:",
      "    git -C x push",
    ]);
    const one = typedAsk({ command: "make" }, [piece("make")]);
    expect(one.ok && one.text).not.toContain("as typed");
    // Effects not read from a parsed command show the command already: no typed line.
    const old = typedAsk({ command: "a; b" }, [cmd("a; b")]);
    expect(old.ok && old.text).not.toContain("as typed");
  });

  it("counts the typed line: a question too long with it is not asked", () => {
    const half = "x".repeat(Math.floor(MAX_QUESTION_CHARS * 0.3));
    const pieces = [piece(`${half}1`), piece(`${half}2`)];
    expect(typedAsk({ other: `${half}1; ${half}2` }, pieces).ok).toBe(true);
    expect(typedAsk({ command: `${half}1; ${half}2` }, pieces)).toMatchObject({ ok: false });
  });

  const full = (lines: string[]) =>
    [
      'effectgate: allow this call to "run_command"? It would:',
      ...lines,
      "Rule: exec *command*.",
      "Policy: the default policy.",
    ].join("\n");

  it("asks without a typed line when the call has no arguments, or they are not a mapping", () => {
    const pieces = [piece("cd /tmp"), piece("ls")];
    const shownPieces = ["- run this command:", "    cd /tmp", "- run this command:", "    ls"];
    for (const params of [
      { name: "run_command" },
      { name: "run_command", arguments: null },
      { name: "run_command", arguments: "cd /tmp; ls" },
      { name: "run_command", arguments: 7 },
    ]) {
      const q = askQuestion({
        method: "tools/call",
        params,
        decision: decision(pieces),
        policySource: "default",
      });
      expect(q).toEqual({ ok: true, text: full(shownPieces) });
    }
    const none = askQuestion({
      method: "tools/call",
      params: undefined,
      decision: decision(pieces),
      policySource: "default",
    });
    expect(none).toEqual({ ok: true, text: full(shownPieces).replace('"run_command"', '"tools/call"') });
  });

  it("leaves out only lines that are a program's command, not another effect's spelling", () => {
    // A script run by path: an exec of a path, read from the parsed command; its line is shown.
    const script: Effect = {
      operation: "exec",
      kind: "path",
      at: "arguments.command",
      spelled: "./build.sh",
      via: via("./build.sh"),
    };
    expect(typedAsk({ command: "./build.sh" }, [script])).toEqual({
      ok: true,
      text: full(["- run this command line, as typed:", "    ./build.sh", "- run ./build.sh"]),
    });
  });

  it("takes a typed line only from effects read from a parsed command", () => {
    // No via: the effect is the argument itself, not a piece of a command line.
    const plain: Effect = { operation: "read", kind: "path", at: "arguments.command", spelled: "/etc/hosts" };
    expect(typedAsk({ command: "cat /etc/hosts" }, [plain])).toEqual({
      ok: true,
      text: full(["- read /etc/hosts"]),
    });
    // An argument named "undefined" is not read for an effect without a name.
    expect(typedAsk({ undefined: "rm -rf ~" }, [plain])).toEqual({
      ok: true,
      text: full(["- read /etc/hosts"]),
    });
  });

  it("reads the argument's name only from a whole arguments.NAME path", () => {
    const at = (path: string, spelled: string): Effect => ({ ...piece(spelled), at: path });
    const args = {
      cmd_A0Z9az: "one && two",
      _x: "three | four",
      Zed: "five; six",
      command: ["seven", "eight"],
      "0cmd": "nine; ten",
      inner: "eleven; twelve",
    };
    const q = typedAsk(args, [
      at("arguments.cmd_A0Z9az", "one"),
      at("arguments._x", "three"),
      at("arguments.Zed", "five"),
      at("arguments.command[0]", "seven"),
      at("arguments.0cmd", "nine"),
      at("params.arguments.inner", "eleven"),
      at("arguments.inner.x", "twelve"),
    ]);
    expect(q).toEqual({
      ok: true,
      text: full([
        "- run this command line, as typed:",
        "    one && two",
        "- run this command line, as typed:",
        "    three | four",
        "- run this command line, as typed:",
        "    five; six",
        ...["one", "three", "five", "seven", "nine", "eleven", "twelve"].flatMap((c) => [
          "- run this command:",
          `    ${c}`,
        ]),
      ]),
    });
  });

  it("joins a list only when every word is a string", () => {
    const mixed = typedAsk({ command: ["git", 3, "push"] }, [piece("git")]);
    expect(mixed).toEqual({ ok: true, text: full(["- run this command:", "    git"]) });
    const words = typedAsk({ command: ["git", "3", "push"] }, [piece("git")]);
    expect(words).toEqual({
      ok: true,
      text: full(["- run this command line, as typed:", "    git 3 push", "- run this command:", "    git"]),
    });
  });
});
