// eval's inputs and thresholds, through the built CLI: every exclusion list applies, a threshold
// over a corpus that was not measured fails, scenario problems read `file:line: key: expected X,
// got Y`, and numbers are printed so that a message never contradicts itself.
import { spawnSync } from "node:child_process";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import type { BenignReport } from "../../../src/core/evaluation/benign.js";
import { digitsBelow } from "../../../src/core/evaluation/thresholds.js";
import { freshEnv, sessionLog, STOPPED, writeAttack, writeBenign } from "../../helpers/tiny-corpus.js";

const CLI = join(import.meta.dirname, "..", "..", "..", "dist", "main.js");
const evalCli = (args: string[], env: Record<string, string>) => {
  const r = spawnSync(process.execPath, [CLI, "eval", ...args], { env, encoding: "utf8" });
  return { code: r.status, out: r.stdout, err: r.stderr };
};
const P = "/home/user/project";
const probe = (sid: string, day: string) =>
  sessionLog(sid, `2026-10-0${day}T09:00:00.000Z`, [
    [0, "write_file", { path: `${P}/.env`, content: "" }, "ok"],
  ]);

describe("eval exclusions", () => {
  it("applies the folder's excluded-sessions.txt, every --exclude-file and every --exclude", () => {
    const { dir, env } = freshEnv();
    const benign = writeBenign(dir, {
      "1.jsonl": probe("p1", "5"),
      "2.jsonl": probe("p2", "6"),
      "3.jsonl": probe("p3", "7"),
      "4.jsonl": probe("p4", "8"),
      "5.jsonl": probe("kept", "9"),
      "excluded-sessions.txt": "p1  # the folder's own list\n",
    });
    const a = join(dir, "a.txt");
    const b = join(dir, "b.txt");
    writeFileSync(a, "p2  # list a\n");
    writeFileSync(b, "p3  # list b\n");
    const r = evalCli(
      ["--benign", benign, "--exclude-file", a, "--exclude-file", b, "--exclude", "p4", "--json"],
      env,
    );
    expect(r.code, r.err).toBe(0);
    const report = (JSON.parse(r.out) as { benign: BenignReport }).benign;
    expect(report.excluded.map((e) => `${e.sid}: ${e.reason}`).sort()).toEqual([
      "p1: the folder's own list",
      "p2: list a",
      "p3: list b",
      "p4: excluded on the command line",
    ]);
    expect(report.sessions).toBe(1);
    const text = evalCli(["--benign", benign, "--exclude", "p4"], env).out;
    expect(text).toContain("  excluded 2 sessions:");
    expect(evalCli(["--benign", benign], env).out).toContain("  excluded 1 session:");
  });

  it("refuses an --exclude id that names no session (exit 2)", () => {
    const { dir, env } = freshEnv();
    const benign = writeBenign(dir, { "1.jsonl": probe("p1", "5") });
    const r = evalCli(["--benign", benign, "--exclude", "p1", "pl"], env);
    expect(r.code).toBe(2);
    expect(r.err).toBe(
      'effectgate eval: --exclude: expected ids of sessions in the benign logs, got "pl", which names none\n',
    );
  });
});

describe("eval thresholds that cannot be checked are not met", () => {
  it("fails --max-blocks-per-week when only attacks were measured", () => {
    const { dir, env } = freshEnv();
    const r = evalCli(["--attack", writeAttack(dir), "--max-blocks-per-week", "1"], env);
    expect(r.code).toBe(1);
    expect(r.out).toContain(
      "threshold missed: --max-blocks-per-week 1 cannot be checked: no benign logs were measured",
    );
  });

  it("fails --min-recall when only benign logs were measured, or no scenario is visible", () => {
    const { dir, env } = freshEnv();
    const benign = writeBenign(dir, { "1.jsonl": probe("p1", "5") });
    const r = evalCli(["--benign", benign, "--min-recall", "0.99"], env);
    expect(r.code).toBe(1);
    expect(r.out).toContain(
      "threshold missed: --min-recall 0.99 cannot be checked: no attack scenarios were measured",
    );
    const empty = evalCli(["--attack", writeAttack(join(dir, "e"), []), "--min-recall", "0"], env);
    expect(empty.code).toBe(1);
    expect(empty.out).toContain("--min-recall 0 cannot be checked: no visible attack scenario to measure");
  });

  it("does not count a log of garbage as measured", () => {
    const { dir, env } = freshEnv();
    const benign = writeBenign(dir, { "junk.jsonl": "this is not a log\n" });
    const r = evalCli(["--benign", join(benign, "junk.jsonl"), "--max-blocks-per-week", "100"], env);
    expect(r.code).toBe(1);
    expect(r.out).toContain(
      "--max-blocks-per-week 100 cannot be checked: no session in the benign logs could be measured (1 unreadable log lines, 0 sessions excluded)",
    );
  });
});

describe("eval numbers", () => {
  it("prints enough digits that recall is visibly below the threshold", () => {
    expect(digitsBelow(49 / 58, 0.845)).toBe("0.8448");
    expect(digitsBelow(0.5, 0.9)).toBe("0.500");
    expect(digitsBelow(0.84499999, 0.845)).toBe("0.84499999");
  });

  it("reads 84.5% as 0.845 and says recall 49/58 is below it without contradiction", () => {
    const { dir, env } = freshEnv();
    // 1 of 2 stopped: 0.5 is below 50.1% but shows as 0.500 only with three digits.
    const r = evalCli(["--attack", writeAttack(dir), "--min-recall", "50.01%"], env);
    expect(r.code).toBe(1);
    expect(r.out).toContain("threshold missed: recall at enforce 1/2 = 0.500 is below --min-recall 0.5001");
  });

  it.each(["0x1", "1e-1", " 1", "Infinity", "1_0", ".5.", "%"])("refuses --min-recall %j", (word) => {
    const { env } = freshEnv();
    const r = evalCli(["--attack", "x", "--min-recall", word], env);
    expect(r.code).toBe(2);
    expect(r.err).toBe(`effectgate eval: --min-recall: expected a non-negative number, got "${word}"\n`);
  });

  it("accepts plain decimals and percentages", () => {
    const { dir, env } = freshEnv();
    const attack = writeAttack(dir);
    for (const word of ["0.5", ".5", "0", "50%", "49.99%"])
      expect(evalCli(["--attack", attack, "--min-recall", word], env).code, word).toBe(0);
  });
});

describe("eval --attack", () => {
  it("says a file is not a folder, and a missing path does not exist", () => {
    const { dir, env } = freshEnv();
    const file = join(dir, "one.yaml");
    writeFileSync(file, "id: x\n");
    expect(evalCli(["--attack", file], env).err).toBe(
      `effectgate eval: --attack: expected a folder of scenario files, got "${file}", which is not a folder\n`,
    );
    expect(evalCli(["--attack", join(dir, "nope")], env).err).toContain("which does not exist");
  });

  const scenario = (...extra: string[]) =>
    [
      "id: write-keys",
      "title: t",
      "category: c",
      "source: {ref: r, what: w}",
      "platform: linux",
      "server: {name: s, command: [x]}",
      ...extra,
    ].join("\n");
  const harmful = [
    "messages:",
    "  - c2s: {id: 1, method: tools/call, params: {name: write_file, arguments: {path: ~/.ssh/k}}}",
    "    harmful: true",
  ];

  it.each([
    [
      "an unknown key, on its line",
      scenario("bogus: 1", ...harmful),
      "s.yaml:7: bogus: expected one of id, title, category, source, platform, server, home, cwd, env, links, dialog, approved, visible, why_invisible, messages, got an unknown key",
    ],
    [
      "a bad id, expected before got",
      scenario(...harmful).replace("id: write-keys", "id: A B"),
      's.yaml:1: id: expected lower-case words joined by - (like spelling-symlink), got "A B"',
    ],
    [
      "a duplicate key, with both lines",
      scenario("title: again", ...harmful),
      "s.yaml:7: title: expected each key once (first on line 2), got a duplicate key",
    ],
    [
      "a YAML syntax error, with its line",
      scenario("messages: [", "  - {"),
      /^s\.yaml:8: \(document\): expected valid YAML, got /,
    ],
    [
      "a key inside a message",
      scenario(...harmful, "  - s2c: 5"),
      "s.yaml:10: messages[1].s2c: expected a JSON-RPC message (a mapping), got number 5",
    ],
    [
      "an unknown key inside a message",
      scenario(...harmful, "  - s2c: {id: 1}", "    harmfull: true"),
      "s.yaml:11: messages[1].harmfull: expected one of s2c, note, got an unknown key",
    ],
    [
      "no harmful message",
      scenario("messages: []"),
      "s.yaml:7: messages: expected exactly one message marked harmful: true, got 0",
    ],
    [
      "a missing key",
      scenario(...harmful).replace("platform: linux\n", ""),
      "s.yaml:1: platform: expected one of linux, darwin, win32, got nothing",
    ],
    [
      "two documents",
      `${scenario(...harmful)}\n---\nid: b\n`,
      "s.yaml:10: (document): expected one YAML document, got 2",
    ],
  ])("reports %s", (_what, text, expected) => {
    const { dir, env } = freshEnv();
    const attack = writeAttack(dir, []);
    writeFileSync(join(attack, "s.yaml"), text);
    const r = evalCli(["--attack", attack], env);
    expect(r.code, r.out).toBe(78);
    const line = r.err.split("\n")[0]?.replace(`effectgate: ${attack}/`, "") ?? "";
    if (typeof expected === "string") expect(line).toBe(expected);
    else expect(line).toMatch(expected);
  });

  it("gives a duplicate id its line", () => {
    const { dir, env } = freshEnv();
    const attack = writeAttack(dir, [STOPPED]);
    writeFileSync(join(attack, "z.json"), JSON.stringify(STOPPED, null, 2));
    const r = evalCli(["--attack", attack], env);
    expect(r.code).toBe(78);
    expect(r.err).toBe(
      `effectgate: ${attack}/z.json:2: id: expected an id no other scenario uses, got write-authorized-keys, also in write-authorized-keys.json\n`,
    );
  });
});
