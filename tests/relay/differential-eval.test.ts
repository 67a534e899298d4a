// Black-box: the BUILT CLI at enforce against `eval`'s rebuild of the very log it wrote. Every
// adversarial frame of the suites (tests/adversarial/*-cases.ts) goes through one relay session
// per kind of server; then the session is judged again the way `eval` judges a benign log, with
// the same machine facts (home, environment, real paths, server folders). Both must reach the
// same verdict for every call of every frame: eval's claim to show what enforce does rests on it
// (issue 18, decision 0073).
import { readdirSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { evaluateBenign } from "../../src/core/evaluation/benign.js";
import { buildTranscript } from "../../src/core/replay/transcript.js";
import { createSessionJudge } from "../../src/core/judge/session.js";
import type { PlatformProfile } from "../../src/core/paths/api.js";
import { readPolicy } from "../../src/config/policy-file.js";
import { tryReadLogFile } from "../../src/log/reader.js";
import { currentPlatform } from "../../src/platform/profile.js";
import { createFsResolver } from "../../src/platform/resolver.js";
import { serverFolders } from "../../src/platform/server-folders.js";
import { box, type Box, GateClient, LENIENT_SERVER } from "../adversarial/gate-client.js";
import type { Attack } from "../adversarial/run-case.js";
import { EFFECTS } from "../adversarial/effect-cases.js";
import { EXEC } from "../adversarial/exec-cases.js";
import { READINGS } from "../adversarial/reading-cases.js";
import { INDIRECT, READS, SPELLINGS } from "../adversarial/spelling-cases.js";

const line = (o: unknown): string => `${JSON.stringify(o)}\n`;
const write = (id: unknown, path: string) => ({
  jsonrpc: "2.0",
  id,
  method: "tools/call",
  params: { name: "write_file", arguments: { path, content: "x" } },
});

/** Frames the copies of the reader once read differently (issue 18), and their neighbours. */
const READER: Attack[] = [
  {
    name: "case-folded-params",
    tries: '"Params" beside params: eval read a clean call',
    frame: (b) =>
      `{"jsonrpc":"2.0","id":"f1","method":"tools/call","params":{"name":"read_text_file","arguments":{"path":${JSON.stringify(join(b.project, "a"))}}},"Params":{"name":"write_file","arguments":{"path":"~/.bashrc","content":"x"}}}\n`,
  },
  {
    name: "call-without-id",
    tries: "a tools/call with no id: eval said not judged",
    frame: (b) =>
      line({ jsonrpc: "2.0", method: "tools/call", params: write(0, join(b.project, "n")).params }),
  },
  {
    name: "cr-inside-batch",
    tries: "a batch with a raw CR between its calls",
    frame: (b) =>
      `[${JSON.stringify(write("c1", join(b.project, "c")))},\r${JSON.stringify(write("c2", "~/.bashrc"))}]\n`,
  },
  {
    name: "batch-with-bad-member",
    tries: "a harmless write beside a member that is not an object",
    frame: (b) => `[${JSON.stringify(write("m1", join(b.project, "m")))},7]\n`,
  },
  {
    name: "not-json-call",
    tries: "a torn tools/call",
    frame: () => '{"jsonrpc":"2.0","id":"t1","method":"tools/call","params":{"name":"write_file"\n',
  },
  {
    name: "clean-write",
    tries: "an allowed write",
    frame: (b) => line(write("ok", join(b.project, "ok.txt"))),
  },
];

/** One relay session runs every case that needs the same server, environment and folder. */
interface Group {
  name: string;
  cases: Attack[];
}

function groups(): Group[] {
  // /proc/self names the process that resolves the path: the relay there, this test here. What
  // it reads is a fact of the process, not of the frame, so those two cases are left out.
  const all = [...READER, ...SPELLINGS, ...READS, ...INDIRECT, ...EFFECTS, ...EXEC, ...READINGS].filter(
    (a) => !a.name.startsWith("proc-self-"),
  );
  const by = new Map<string, Group>();
  for (const a of all) {
    // Cases that set options are run as they are elsewhere; none does today.
    const key = JSON.stringify([a.server ?? "", a.env ?? {}, a.cwd ? a.cwd(PROBE) : "", a.options?.(PROBE)]);
    const g = by.get(key) ?? { name: `${a.name} and ${0} more`, cases: [] };
    g.cases.push(a);
    g.name = `${g.cases[0]?.name} and ${g.cases.length - 1} more`;
    by.set(key, g);
  }
  return [...by.values()];
}

/** A stand-in box to tell the cases' folders apart (home vs project). */
const PROBE: Box = { home: "/H", project: "/H/project", record: "", pidFile: "", logDir: "", env: {} };

/** `line verdict` of every call the relay decided on, by the log line of its frame. */
function relayVerdicts(entries: ReturnType<typeof readEntries>): string[] {
  const out: string[] = [];
  let frameLine = 0;
  for (const e of entries) {
    if ("error" in e) continue;
    const r = e.record;
    if (r.type === "frame" && r.dir === "c2s") frameLine = e.line;
    if (r.type === "event" && r.ev === "decision" && r.data["verdict"] !== "allow")
      out.push(`${frameLine} ${String(r.data["verdict"])}`);
  }
  return out.sort();
}

function readEntries(file: string) {
  const got = tryReadLogFile(file);
  if (!got.ok) throw new Error(`${file}: ${got.why}`);
  return got.lines;
}

async function runGroup(g: Group): Promise<{
  relay: string[];
  evaluated: string[];
  frames: number;
  replay: ReturnType<typeof replayReading>;
}> {
  const first = g.cases[0] as Attack;
  const b = box(first.env);
  for (const a of g.cases) {
    try {
      a.setup?.(b);
    } catch (err) {
      // Two cases may lay the same link in the shared box; once is enough.
      if ((err as NodeJS.ErrnoException).code !== "EEXIST") throw err;
    }
  }
  const cwd = first.cwd?.(b);
  const server = first.server ?? LENIENT_SERVER;
  const argv = [process.execPath, server];
  const c = new GateClient(
    ["--level", "enforce", "--log-dir", b.logDir, ...(first.options?.(b) ?? []), "--", ...argv],
    b.env,
    cwd,
  );
  try {
    await c.initialize();
    for (const a of g.cases) c.write(a.frame(b));
    c.call("canary", "write_file", { path: join(b.project, "canary.txt"), content: "alive" });
    await c.answer("canary", 30_000);
  } finally {
    await c.close();
  }
  const [log] = readdirSync(b.logDir).filter((f) => f.endsWith(".jsonl"));
  const file = join(b.logDir, log as string);
  const entries = readEntries(file);
  // The machine the relay ran on: its home, environment and folder, the real file system.
  const env: Record<string, string> = {};
  for (const [k, v] of Object.entries(b.env)) if (typeof v === "string") env[k] = v;
  const profile: PlatformProfile = {
    platform: currentPlatform(),
    home: b.home,
    env,
    cwd: cwd ?? process.cwd(),
  };
  const policy = readPolicy(undefined, profile);
  const report = evaluateBenign(
    [{ file: log as string, entries }],
    () =>
      createSessionJudge(policy, {
        profile,
        resolver: createFsResolver(),
        bases: serverFolders(argv, profile),
      }),
    () => ({ profile, resolver: createFsResolver() }),
  );
  const evaluated = report.flagged.map((f) => `${f.line} ${f.verdict}`).sort();
  const frames = entries.filter(
    (e) => !("error" in e) && e.record.type === "frame" && e.record.dir === "c2s",
  ).length;
  return { relay: relayVerdicts(entries), evaluated, frames, replay: replayReading(entries) };
}

/**
 * Replay's reading of the same log: the log lines it shows as effectgate's answers, beside the
 * lines the relay marked as its own (decision 0112).
 */
function replayReading(entries: ReturnType<typeof readEntries>) {
  const marked = entries.flatMap((e) =>
    !("error" in e) && e.record.type === "frame" && e.record.by === "effectgate" ? [e.line] : [],
  );
  const [session] = buildTranscript(entries);
  const items = session?.items ?? [];
  const refusals = items.filter((i) => i.kind === "response" && i.outcome === "refusal").map((i) => i.line);
  return { marked, refusals: [...new Set(refusals)] };
}

describe("the relay at enforce and eval's rebuild of its log reach the same verdicts", () => {
  for (const g of groups()) {
    it(`${g.name} (${g.cases.length} frames)`, async () => {
      const { relay, evaluated, frames, replay } = await runGroup(g);
      // Every frame reached the relay, and it refused or noted something (not a vacuous pass).
      expect(frames).toBeGreaterThanOrEqual(g.cases.length + 2);
      expect(relay.length).toBeGreaterThan(0);
      const only = (a: string[], b: string[]) => a.filter((x) => !b.includes(x));
      expect({ relayOnly: only(relay, evaluated), evalOnly: only(evaluated, relay) }).toEqual({
        relayOnly: [],
        evalOnly: [],
      });
      expect(evaluated).toEqual(relay);
      // Replay reads the frames with the relay's classifier: every answer effectgate wrote is
      // shown as its refusal, and no other is.
      expect(replay.marked.length).toBeGreaterThan(0);
      expect(replay.refusals).toEqual(replay.marked);
    }, 120_000);
  }
});
