// eval counts strict's desktop-dialog questions (issue 23, decision 0133): a session logged by the
// built relay at strict with --dialog auto (a fake dialog that says yes, on a temporary PATH),
// then eval over that log. Its header says a dialog was on offer, so a client that cannot be asked
// in its chat counts as asked in a dialog. The same log with the header's `ask` taken out, as an
// earlier version wrote it, reads as before: out of band. `status` reads the header the same way.
import { spawnSync } from "node:child_process";
import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { BenignReport } from "../../../src/core/evaluation/benign.js";
import { CLI, RECORDING_SERVER, sandbox, sdkClient } from "../../e2e/harness.js";
import { fakeDialogs } from "../../helpers/fake-dialog.js";

let home = "";
let logs = "";
const cleanup: Array<() => void> = [];

beforeAll(async () => {
  const box = sandbox();
  home = box.home;
  const fakes = fakeDialogs({ zenity: "zenity" });
  cleanup.push(fakes.remove, () => rmSync(box.home, { recursive: true, force: true }));
  delete box.env.WAYLAND_DISPLAY;
  Object.assign(box.env, fakes.env("yes"), { DISPLAY: ":0" });
  mkdirSync(join(home, "proj", ".vscode"), { recursive: true });
  const client = await sdkClient(
    ["--level", "strict", "--dialog", "auto", "--", process.execPath, RECORDING_SERVER],
    { env: box.env },
  );
  // Two confirms (paths.confirm **/.vscode/tasks.json), each allowed in the dialog, and a read.
  const manifest = join(home, "proj", ".vscode", "tasks.json");
  for (const content of ["{}", "{ }"])
    await client.callTool({ name: "write_file", arguments: { path: manifest, content } });
  await client.callTool({ name: "read_text_file", arguments: { path: join(home, "proj", "a.md") } });
  await client.close();
  expect(fakes.shown()).toHaveLength(2);
  logs = join(home, ".effectgate", "sessions");
}, 60_000);

afterAll(() => {
  for (const c of cleanup.splice(0)) c();
});

function evalAsks(path: string): { asks: BenignReport["asks"]; text: string } {
  const env = { ...process.env, HOME: home, EFFECTGATE_HOME: join(home, ".effectgate") };
  const json = spawnSync(process.execPath, [CLI, "eval", "--benign", path, "--json"], {
    env,
    encoding: "utf8",
  });
  expect(json.status, json.stderr).toBe(0);
  const text = spawnSync(process.execPath, [CLI, "eval", "--benign", path], { env, encoding: "utf8" });
  return { asks: (JSON.parse(json.stdout) as { benign: BenignReport }).benign.asks, text: text.stdout };
}

describe("eval reads the asking channels from the session header", () => {
  it("counts the relay's dialog questions as asked (dialog)", () => {
    const { asks, text } = evalAsks(logs);
    expect(asks.asked).toEqual({ elicitation: 0, input_required: 0, dialog: 2 });
    expect(asks.refused).toEqual({ "out of band": 0, none: 0, flood: 0 });
    expect(text).toContain(
      "confirms at strict: 2 asked (in the chat 0: elicitation 0, input_required 0; in a dialog 2), 0 refused (out of band 0, none 0, too many dialog questions 0)",
    );
  });

  it("status says the same: strict asked this client in a desktop dialog", () => {
    const env = { ...process.env, HOME: home, EFFECTGATE_HOME: join(home, ".effectgate") };
    const run = (args: string[]) =>
      spawnSync(process.execPath, [CLI, "status", ...args], { env, encoding: "utf8" });
    const json = run(["--json"]);
    expect(json.status, json.stderr).toBe(0);
    const recent = (JSON.parse(json.stdout) as { recent: Array<{ asks: string | null }> }).recent;
    expect(recent.map((r) => r.asks)).toEqual(["dialog"]);
    expect(run([]).stdout).toContain("client effectgate-e2e 1: strict asks in a desktop dialog");
  });

  it("reads a header without `ask` (an earlier version's log) as out of band, as before", () => {
    const [file] = readdirSync(logs).filter((f) => f.endsWith(".jsonl"));
    const lines = readFileSync(join(logs, file as string), "utf8").split("\n");
    const header = JSON.parse(lines[0] as string) as Record<string, unknown>;
    expect(header["ask"]).toMatchObject({ dialog: "zenity" });
    delete header["ask"];
    const old = join(home, "old");
    mkdirSync(old);
    writeFileSync(join(old, file as string), [JSON.stringify(header), ...lines.slice(1)].join("\n"));
    const { asks, text } = evalAsks(old);
    expect(asks.asked).toEqual({ elicitation: 0, input_required: 0, dialog: 0 });
    expect(asks.refused).toEqual({ "out of band": 2, none: 0, flood: 0 });
    expect(text).toContain(
      "confirms at strict: 0 asked in the chat (elicitation 0, input_required 0), 2 refused (out of band 2, none 0)",
    );
  });
});
