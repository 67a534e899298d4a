import { spawnSync } from "node:child_process";
import { existsSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { WEEK_MS } from "../../../src/core/evaluation/active-time.js";
import type { BenignReport } from "../../../src/core/evaluation/benign.js";
import type { RecallReport } from "../../../src/core/evaluation/recall.js";
import {
  freshEnv,
  MISSED,
  sessionLog,
  STOPPED,
  writeAttack,
  writeBenign,
} from "../../helpers/tiny-corpus.js";

const CLI = join(import.meta.dirname, "..", "..", "..", "dist", "main.js");

function evalCli(args: string[], env: Record<string, string>) {
  const r = spawnSync(process.execPath, [CLI, "eval", ...args], { env, encoding: "utf8" });
  return { code: r.status, out: r.stdout, err: r.stderr };
}

beforeAll(() => {
  // `npm test` builds first; run `npx tsc -p tsconfig.build.json` before running this file alone.
  expect(existsSync(CLI), `${CLI} is missing: build first`).toBe(true);
});

const P = "/home/user/project";
// Two hours of work with one call the default policy denies (writing .npmrc) and one it asks
// about (CLAUDE.md, an instruction file later sessions obey); a 45-minute lunch in the middle is not active time.
const LONG = sessionLog("longsession", "2026-10-05T09:00:00.000Z", [
  [0, "read_text_file", { path: `${P}/src/a.ts` }, "x"],
  [20, "write_file", { path: `${P}/.npmrc`, content: "PORT=3000" }, "ok"],
  [40, "edit_file", { path: `${P}/CLAUDE.md`, edits: [] }, "ok"],
  [60, "read_text_file", { path: `${P}/README.md` }, "x"],
  [105, "read_text_file", { path: `${P}/docs/ssh-guide/keys.md` }, "x"],
  [125, "write_file", { path: `${P}/config/mcp.json.bak`, content: "{}" }, "ok"],
  [145, "read_text_file", { path: `${P}/src/b.ts` }, "x"],
]);
// active: 0 → 60 min + 1 s, then 105 → 145 min + 1 s (the gap of almost 45 minutes is idle)
const LONG_ACTIVE_MS = (60 + 40) * 60_000 + 2 * 1000;

describe("eval on a tiny corpus with known answers", () => {
  it("counts the stopped scenario, names the missed one, lists the invisible one apart", () => {
    const { dir, env } = freshEnv();
    const r = evalCli(["--attack", writeAttack(dir), "--json"], env);
    expect(r.code, r.err).toBe(0);
    const report = JSON.parse(r.out) as { attack: RecallReport };
    expect(report.attack.visible).toBe(2);
    expect(report.attack.perLevel.enforce).toEqual({ stopped: 1, total: 2, recall: 0.5 });
    expect(report.attack.perLevel.strict).toEqual({ stopped: 1, total: 2, recall: 0.5 });
    expect(report.attack.perLevel.observe).toEqual({ stopped: 0, total: 2, recall: 0 });
    const missed = report.attack.missed.map((m) => `${m.level}:${m.id}:${m.outcome}`);
    expect(missed).toEqual(["enforce:send-message-egress:forward", "strict:send-message-egress:forward"]);
    expect(report.attack.invisible).toEqual([
      {
        id: "server-side-backdoor",
        title: "scenario server-side-backdoor",
        category: "egress",
        why: "the server does it itself",
      },
    ]);

    const text = evalCli(["--attack", writeAttack(dir)], env).out;
    expect(text).toContain("enforce  1/2 (50.0%)");
    expect(text).toMatch(/\[enforce\] send-message-egress \(egress\): forward; allow/);
    expect(text).toContain("server-side-backdoor (egress): the server does it itself");
  });

  it("exits 1 when recall is under --min-recall, 0 when it is met", () => {
    const { dir, env } = freshEnv();
    const attack = writeAttack(dir);
    const low = evalCli(["--attack", attack, "--min-recall", "0.9"], env);
    expect(low.code).toBe(1);
    expect(low.out).toContain("threshold missed: recall at enforce 1/2 = 0.500 is below --min-recall 0.9");
    expect(evalCli(["--attack", attack, "--min-recall", "50%"], env).code).toBe(0);
  });

  it("re-judges benign calls, reports the refused one and blocks per week over active time", () => {
    const { dir, env } = freshEnv();
    const benign = writeBenign(dir, { "20261005T090000.000Z-longsession.jsonl": LONG });
    const r = evalCli(["--benign", benign, "--json"], env);
    expect(r.code, r.err).toBe(0);
    const b = (JSON.parse(r.out) as { benign: BenignReport }).benign;
    expect(b.calls).toBe(7);
    expect(b.verdicts).toEqual({ allow: 5, confirm: 1, deny: 1 });
    expect(b.activeMs).toBe(LONG_ACTIVE_MS);
    expect(b.flagged.map((f) => `${f.verdict}:${f.tool}`)).toEqual(["deny:write_file", "confirm:edit_file"]);
    expect(b.enforce).toEqual({ ok: true, blocks: 1, calls: 7, perWeek: WEEK_MS / LONG_ACTIVE_MS });
    expect(b.strict).toEqual({ ok: true, blocks: 2, calls: 7, perWeek: (2 * WEEK_MS) / LONG_ACTIVE_MS });

    const text = evalCli(["--benign", benign], env).out;
    expect(text).toContain("verdicts: 5 allow, 1 confirm, 1 deny");
    expect(text).toContain(
      `enforce  ${(WEEK_MS / LONG_ACTIVE_MS).toFixed(1)} per week (1 blocked of 7 calls)`,
    );
    expect(text).toMatch(/20261005T090000\.000Z-longsession\.jsonl:4 .* deny write_file/);
  });

  it("refuses to print a rate over less than an hour of active traffic", () => {
    const { dir, env } = freshEnv();
    const short = sessionLog("short", "2026-10-05T09:00:00.000Z", [
      [0, "write_file", { path: `${P}/.npmrc`, content: "x" }, "ok"],
      [25, "read_text_file", { path: `${P}/a.ts` }, "x"],
      [50, "read_text_file", { path: `${P}/b.ts` }, "x"],
    ]);
    const benign = writeBenign(dir, { "a.jsonl": short });
    const r = evalCli(["--benign", benign], env);
    expect(r.code).toBe(0);
    expect(r.out).toContain(
      "enforce  not enough traffic to say: 3 calls over 50 minutes of active time (need at least 60)",
    );
    expect(r.out).not.toMatch(/per week \(/);
    const gated = evalCli(["--benign", benign, "--max-blocks-per-week", "5"], env);
    expect(gated.code).toBe(1);
    expect(gated.out).toContain(
      "threshold missed: --max-blocks-per-week 5 cannot be checked: not enough traffic to say",
    );
  });

  it("lets taint evolve as the session's responses arrive", () => {
    const { dir, env } = freshEnv();
    const log = sessionLog("tainted", "2026-10-05T09:00:00.000Z", [
      [0, "run_command", { command: "deploy-tool --all" }, "ok"],
      [1, "fetch", { url: "https://example.com/docs" }, "a page"],
      [2, "run_command", { command: "deploy-tool --all" }, "ok"],
    ]);
    const r = evalCli(["--benign", writeBenign(dir, { "t.jsonl": log }), "--json"], env);
    const flagged = (JSON.parse(r.out) as { benign: { flagged: { verdict: string; tainted: boolean }[] } })
      .benign.flagged;
    expect(flagged.map((f) => `${f.verdict}:${f.tainted}`)).toEqual(["confirm:false", "deny:true"]);
  });

  it("leaves out sessions named by --exclude and by an exclude file, with the reason", () => {
    const { dir, env } = freshEnv();
    const benign = writeBenign(dir, {
      "1.jsonl": LONG,
      "2.jsonl": sessionLog("probe1", "2026-10-06T09:00:00.000Z", [
        [0, "write_file", { path: `${P}/.npmrc`, content: "" }, "ok"],
      ]),
      "3.jsonl": sessionLog("probe2", "2026-10-07T09:00:00.000Z", [
        [0, "write_file", { path: `${P}/.npmrc`, content: "" }, "ok"],
      ]),
    });
    const list = join(dir, "exclude.txt");
    writeFileSync(list, "# probes\nprobe1  # approve probe\n");
    const b = (
      JSON.parse(
        evalCli(["--benign", benign, "--exclude-file", list, "--exclude", "probe2", "--json"], env).out,
      ) as { benign: BenignReport }
    ).benign;
    expect(b.excluded).toEqual([
      { sid: "probe1", reason: "approve probe" },
      { sid: "probe2", reason: "excluded on the command line" },
    ]);
    expect(b.calls).toBe(7);
    writeFileSync(list, "probe1 is a probe\n");
    const bad = evalCli(["--benign", benign, "--exclude-file", list], env);
    expect(bad.code).toBe(78);
    expect(bad.err).toContain(
      `${list}:1: exclude: expected a session id, optionally followed by  # reason, got "probe1 is a probe"`,
    );
  });

  it("rejects a scenario with a typo, naming file, line and key", () => {
    const { dir, env } = freshEnv();
    const attack = writeAttack(dir, [STOPPED]);
    writeFileSync(
      join(attack, "typo.yaml"),
      `id: typo\ntitle: t\ncategory: c\nsource: {ref: r, what: w}\nplatform: linux\nserver: {name: s, command: [x]}\nmesages: []\n`,
    );
    const r = evalCli(["--attack", attack], env);
    expect(r.code).toBe(78);
    expect(r.err).toMatch(/typo\.yaml:\d+: /);
    expect(r.err).toContain("mesages");
  });

  it("rejects bad words with exit 2", () => {
    const { env } = freshEnv();
    expect(evalCli(["--min-recall", "abc"], env).code).toBe(2);
    expect(evalCli(["--frobnicate"], env).code).toBe(2);
    void MISSED;
  });
});
