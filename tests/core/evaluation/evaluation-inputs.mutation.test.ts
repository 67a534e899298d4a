// The inputs of `effectgate eval`, in process: its words, the exclusion list, the scenario format,
// the synthetic machine (home, environment, links) and active time.
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { parse as parseYaml } from "yaml";
import {
  activeIntervals,
  blocksPerWeek,
  IDLE_GAP_MS,
  MIN_ACTIVE_MS,
  unionLength,
  WEEK_MS,
} from "../../../src/core/evaluation/active-time.js";
import { parseExcludeFile } from "../../../src/core/evaluation/exclude.js";
import { inferHome } from "../../../src/core/evaluation/home.js";
import { mapResolver, syntheticEnv, syntheticProfile } from "../../../src/core/evaluation/machine.js";
import { parseCount, parseFraction } from "../../../src/core/evaluation/options.js";
import { defaultMachine, Scenario } from "../../../src/core/evaluation/scenario.js";
import { ConfigError, UsageError } from "../../../src/core/errors.js";

const usage = (parse: (text: string) => number, text: string): string => {
  try {
    parse(text);
  } catch (e) {
    expect(e).toBeInstanceOf(UsageError);
    return (e as Error).message;
  }
  throw new Error(`no usage error for ${JSON.stringify(text)}`);
};

// The option words themselves are read by the command's declaration (tests/commands/eval/
// eval-options.test.ts); these are the numbers the measurement depends on.
describe("eval thresholds", () => {
  it("takes recall as a fraction or a percentage, and blocks as any non-negative number", () => {
    expect(parseFraction("90%")).toBeCloseTo(0.9);
    expect(parseFraction("84.5%")).toBe(0.845);
    expect(parseFraction("0.5")).toBe(0.5);
    expect(parseFraction("1")).toBe(1);
    expect(parseFraction("0")).toBe(0);
    expect(parseFraction("100%")).toBe(1);
    expect(parseFraction(".5")).toBe(0.5);
    expect(parseCount("150")).toBe(150);
    expect(parseCount("0")).toBe(0);
    expect(parseCount("2.5")).toBe(2.5);
  });

  it("names what was wrong", () => {
    expect(usage(parseFraction, "x")).toBe('expected a non-negative number, got "x"');
    expect(usage(parseFraction, " ")).toBe('expected a non-negative number, got " "');
    expect(usage(parseFraction, "-0.1")).toBe('expected a non-negative number, got "-0.1"');
    expect(usage(parseFraction, "Infinity")).toContain("non-negative number");
    expect(usage(parseFraction, "0x1")).toContain("non-negative number");
    expect(usage(parseFraction, "1e-1")).toContain("non-negative number");
    expect(usage(parseFraction, "1.5")).toBe('expected a fraction from 0 to 1 (or a percentage), got "1.5"');
    expect(usage(parseFraction, "101%")).toContain("a fraction from 0 to 1");
    // A percent sign means nothing for a count.
    expect(usage(parseCount, "5%")).toBe('expected a non-negative number, got "5%"');
    expect(usage(parseCount, "-1")).toContain("non-negative number");
  });
});

describe("exclusion list", () => {
  it("reads ids with reasons, skipping blanks and comments", () => {
    const m = parseExcludeFile("# header\n\nabc  # a probe\r\n  def\nghi #   demo  \n", "ex.txt");
    expect([...m]).toEqual([
      ["abc", "a probe"],
      ["def", "no reason given"],
      ["ghi", "demo"],
    ]);
    expect(parseExcludeFile("x #", "f").get("x")).toBe("no reason given");
  });

  it("names each bad line with file and line", () => {
    let err: unknown;
    try {
      parseExcludeFile("ok\ntwo words\n\nalso bad here\n", "ex.txt");
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(ConfigError);
    const problems = (err as ConfigError).problems;
    expect(problems).toEqual([
      {
        file: "ex.txt",
        line: 2,
        key: "exclude",
        expected: "a session id, optionally followed by  # reason",
        got: '"two words"',
      },
      expect.objectContaining({ line: 4, got: '"also bad here"' }),
    ]);
    const long = `a ${"b".repeat(100)}`;
    try {
      parseExcludeFile(long, "f");
    } catch (e) {
      expect((e as ConfigError).problems[0]?.got).toBe(JSON.stringify(long.slice(0, 60)));
    }
  });
});

describe("scenario format", () => {
  const base = {
    id: "a-1",
    title: "t",
    category: "c",
    source: { ref: "r", what: "w" },
    platform: "linux",
    server: { name: "s", command: ["x"] },
  };
  const harmful = { c2s: { id: 1, method: "tools/call" }, harmful: true };

  it("takes every shipped attack scenario, on each platform, with long titles and full commands", () => {
    const dir = join(import.meta.dirname, "..", "..", "..", "corpus", "attack");
    const files = readdirSync(dir).filter((f) => f.endsWith(".yaml"));
    expect(files.length).toBeGreaterThan(50);
    const platforms = new Set<string>();
    for (const f of files) {
      const s = Scenario.parse(parseYaml(readFileSync(join(dir, f), "utf8")));
      platforms.add(s.platform);
    }
    expect([...platforms].sort()).toEqual(["darwin", "linux", "win32"]);
    const long = {
      ...base,
      title: "a longer title",
      category: "exec",
      source: { ref: "CVE-1", what: "x y" },
    };
    const multi = { ...long, server: { name: "files", command: ["npx", "-y", "server"] } };
    expect(Scenario.safeParse({ ...multi, messages: [harmful] }).success).toBe(true);
  });

  it("refuses an id that is not lower-case words joined by -, anywhere in it", () => {
    for (const id of ["a_1", "A-1", "a-1_", "a-1 ", "-a"]) {
      expect(Scenario.safeParse({ ...base, id, messages: [harmful] }).success, id).toBe(false);
    }
  });

  it("accepts a scenario and defaults visible to true", () => {
    const s = Scenario.parse({ ...base, messages: [harmful, { s2c: { id: 1, result: {} } }] });
    expect(s.visible).toBe(true);
    expect(Scenario.parse({ ...base, messages: [{ c2s_raw: "{}", harmful: true }] }).messages).toHaveLength(
      1,
    );
  });

  it("wants exactly one harmful message in a visible scenario, and a reason in an invisible one", () => {
    const issues = (v: unknown) => {
      const r = Scenario.safeParse(v);
      return r.success ? [] : r.error.issues.map((i) => `${i.path.join(".")}: ${i.message}`);
    };
    expect(issues({ ...base, messages: [] })).toEqual([
      "messages: expected exactly one message marked harmful: true, got 0",
    ]);
    expect(issues({ ...base, messages: [harmful, harmful] })).toEqual([
      "messages: expected exactly one message marked harmful: true, got 2",
    ]);
    expect(issues({ ...base, visible: false, messages: [] })).toEqual([
      "why_invisible: expected a reason when visible is false, got none",
    ]);
    expect(issues({ ...base, visible: false, why_invisible: "server-side", messages: [] })).toEqual([]);
    expect(issues({ ...base, id: "Bad_Id", messages: [harmful] })[0]).toBe(
      "id: lower-case words joined by -",
    );
    expect(issues({ ...base, typo: 1, messages: [harmful] })).toHaveLength(1);
    expect(issues({ ...base, messages: [{ c2s: {}, harmful: false }] }).length).toBeGreaterThan(0);
  });

  it("has a synthetic machine per platform", () => {
    expect(defaultMachine("linux")).toEqual({ home: "/home/user", cwd: "/home/user/project" });
    expect(defaultMachine("darwin")).toEqual({ home: "/Users/user", cwd: "/Users/user/project" });
    expect(defaultMachine("win32")).toEqual({ home: "C:\\Users\\user", cwd: "C:\\Users\\user\\project" });
  });
});

describe("synthetic machine", () => {
  it("reads the home off a recorded cwd, else the synthetic one", () => {
    expect(inferHome("linux", "/home/ana/src/app")).toBe("/home/ana");
    expect(inferHome("linux", "/home/ana")).toBe("/home/ana");
    expect(inferHome("linux", "/root/x")).toBe("/root");
    expect(inferHome("linux", "/rootless")).toBe("/home/user");
    expect(inferHome("linux", "/srv/home/ana")).toBe("/home/user");
    expect(inferHome("linux", "/home/")).toBe("/home/user");
    expect(inferHome("darwin", "/Users/bo")).toBe("/Users/bo");
    expect(inferHome("darwin", "/Users/bo/p")).toBe("/Users/bo");
    expect(inferHome("darwin", "/home/bo")).toBe("/Users/user");
    expect(inferHome("win32", "D:\\Users\\eve\\p")).toBe("D:\\Users\\eve");
    expect(inferHome("win32", "c:\\Users\\eve")).toBe("c:\\Users\\eve");
    expect(inferHome("win32", "D:\\work")).toBe("C:\\Users\\user");
    expect(inferHome("win32", "X:\\D:\\Users\\eve")).toBe("C:\\Users\\user");
  });

  it("gives each platform its usual environment", () => {
    expect(syntheticEnv("linux", "/home/u")).toEqual({ HOME: "/home/u", USER: "user", SHELL: "/bin/bash" });
    expect(syntheticEnv("darwin", "/Users/u")).toEqual({ HOME: "/Users/u", USER: "user", SHELL: "/bin/zsh" });
    expect(syntheticEnv("win32", "C:\\Users\\u")).toEqual({
      USERPROFILE: "C:\\Users\\u",
      HOMEDRIVE: "C:",
      HOMEPATH: "\\Users\\u",
      APPDATA: "C:\\Users\\u\\AppData\\Roaming",
      LOCALAPPDATA: "C:\\Users\\u\\AppData\\Local",
      USERNAME: "user",
      TEMP: "C:\\Users\\u\\AppData\\Local\\Temp",
    });
    expect(syntheticProfile("linux", "/home/u", "/w", { HOME: "/elsewhere", X: "1" })).toEqual({
      platform: "linux",
      home: "/home/u",
      cwd: "/w",
      env: { HOME: "/elsewhere", USER: "user", SHELL: "/bin/bash", X: "1" },
    });
    expect(syntheticProfile("darwin", "/Users/u", "/w").env).toEqual(syntheticEnv("darwin", "/Users/u"));
  });

  it("resolves links segment-wise, longest first, folding case where the OS does", () => {
    const r = mapResolver("win32", { "C:\\Users\\user\\SSH~1": "C:\\Users\\user\\.ssh" });
    expect(r.realpath("c:\\users\\USER\\ssh~1\\k")).toBe("C:\\Users\\user\\.ssh\\k");
    expect(r.realpath("C:\\Users\\user\\SSH~1")).toBe("C:\\Users\\user\\.ssh");
    expect(r.realpath("C:\\Users\\user\\SSH~10\\k")).toBe("C:\\Users\\user\\SSH~10\\k");
    expect(r.realpath("C:\\Users\\user\\SSH~1/k")).toBe("C:\\Users\\user\\SSH~1/k");
    const l = mapResolver("linux", { "/a/b": "/x", "/a/b/c": "/y" });
    expect(l.realpath("/a/b/c/d")).toBe("/y/d");
    expect(l.realpath("/a/b/d")).toBe("/x/d");
    expect(l.realpath("/a/bc")).toBe("/a/bc");
    expect(l.realpath("/A/b/c")).toBe("/A/b/c");
    const d = mapResolver("darwin", { "/Users/u/Link": "/Users/u/.ssh" });
    expect(d.realpath("/users/u/link/k")).toBe("/Users/u/.ssh/k");
    // A prefix ending in the separator matches what follows it directly.
    expect(mapResolver("linux", { "/p/": "/q/" }).realpath("/p/x")).toBe("/q/x");
    // Links are followed until nothing changes: a chain, and a link to itself.
    expect(mapResolver("linux", { "/a": "/b", "/b": "/c" }).realpath("/a/k")).toBe("/c/k");
    expect(mapResolver("linux", { "/a": "/a" }).realpath("/a/k")).toBe("/a/k");
    // A loop stops after a bounded number of rounds.
    const loop = mapResolver("linux", { "/a": "/b", "/b": "/a" }).realpath("/a/k");
    expect(["/a/k", "/b/k"]).toContain(loop);
    expect(mapResolver("linux", undefined).realpath("/z")).toBe("/z");
  });
});

describe("active time", () => {
  const m = 60_000;
  it("skips silences over 30 minutes, ignores unreadable and repeated times", () => {
    expect(IDLE_GAP_MS).toBe(30 * m);
    expect(activeIntervals([0, 10 * m, 45 * m, 50 * m])).toEqual([
      [0, 10 * m],
      [45 * m, 50 * m],
    ]);
    expect(activeIntervals([30 * m, 0])).toEqual([[0, 30 * m]]);
    expect(activeIntervals([0, 30 * m + 1])).toEqual([]);
    expect(activeIntervals([0, NaN, 5 * m, 5 * m, 7 * m])).toEqual([[0, 7 * m]]);
    expect(activeIntervals([5])).toEqual([]);
    expect(activeIntervals([0, 10, 20], 5)).toEqual([]);
    expect(activeIntervals([0, 10, 20], 10)).toEqual([[0, 20]]);
  });

  it("counts overlapping stretches once", () => {
    expect(
      unionLength([
        [30 * m, 31 * m],
        [0, 10 * m],
        [5 * m, 20 * m],
        [6 * m, 8 * m],
      ]),
    ).toBe(21 * m);
    expect(unionLength([])).toBe(0);
    expect(unionLength([[10, 10]])).toBe(0);
  });

  it("gives a rate only over an hour or more of activity", () => {
    expect(MIN_ACTIVE_MS).toBe(60 * m);
    expect(WEEK_MS).toBe(7 * 24 * 60 * m);
    expect(blocksPerWeek(2, 10, 60 * m - 1)).toEqual({
      ok: false,
      blocks: 2,
      calls: 10,
      why: "not enough traffic to say: 10 calls over 59 minutes of active time (need at least 60)",
    });
    expect(blocksPerWeek(2, 10, 60 * m)).toEqual({ ok: true, perWeek: 336, blocks: 2, calls: 10 });
    expect(blocksPerWeek(0, 3, 2 * 60 * m)).toEqual({ ok: true, perWeek: 0, blocks: 0, calls: 3 });
  });
});

describe("case folding of links", () => {
  it("folds to lower case, as darwin and win32 compare names, so ß does not match SS", () => {
    const r = mapResolver("darwin", { "/Users/u/ß": "/t" });
    expect(r.realpath("/users/u/ß/k")).toBe("/t/k");
    expect(r.realpath("/Users/u/SS/k")).toBe("/Users/u/SS/k");
  });
});
