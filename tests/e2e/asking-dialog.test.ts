// Desktop dialogs at --level strict, black-box through the built CLI with the official SDK
// client (it declares no elicitation, like Gemini CLI or Zed) and the recording server. The
// dialog tools are fakes on a temporary PATH that record how they were started and answer yes,
// no or never (tests/helpers/fake-dialog.ts). Judged by what reached the server and the fakes.
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { CLI, RECORDING_SERVER, received, sandbox, sdkClient } from "./harness.js";
import { fakeDialogs, type FakeDialogs } from "../helpers/fake-dialog.js";

const LINUX_TOOLS = { zenity: "zenity", kdialog: "kdialog", "notify-send": "notify-send" };
const SERVER = ["--", process.execPath, RECORDING_SERVER];
const STRICT_DIALOG = ["--level", "strict", "--dialog", "auto", ...SERVER];

const cleanup: Array<() => void> = [];
afterEach(() => {
  for (const c of cleanup.splice(0)) c();
});

/** A sandbox whose PATH holds only the fakes, on a desktop (DISPLAY set) unless told otherwise. */
function desktop(
  answer: "yes" | "no" | "hang",
  tools: Record<string, string> = LINUX_TOOLS,
  display = true,
): { home: string; env: NodeJS.ProcessEnv; record: string; fakes: FakeDialogs; manifest: string } {
  const { home, env, record } = sandbox();
  const fakes = fakeDialogs(tools);
  cleanup.push(() => {
    fakes.remove();
    rmSync(home, { recursive: true, force: true });
  });
  delete env.DISPLAY;
  delete env.WAYLAND_DISPLAY;
  Object.assign(env, fakes.env(answer), display ? { DISPLAY: ":0" } : {});
  // A confirm-class write in an untainted session (paths.confirm **/.vscode/tasks.json).
  mkdirSync(join(home, "proj", ".vscode"), { recursive: true });
  return { home, env, record, fakes, manifest: join(home, "proj", ".vscode", "tasks.json") };
}

const calls = (record: string): unknown[] => received(record).filter((m) => m.method === "tools/call");

function textOf(r: unknown): string {
  return ((r as { content: Array<{ text: string }> }).content[0] as { text: string }).text;
}

function pendingIds(env: NodeJS.ProcessEnv): string[] {
  const r = spawnSync(process.execPath, [CLI, "pending", "--json"], { env, encoding: "utf8" });
  expect(r.status, r.stderr).toBe(0);
  return (JSON.parse(r.stdout) as Array<{ id: string }>).map((q) => q.id);
}

async function writeOnce(args: string[], env: NodeJS.ProcessEnv, path: string): Promise<unknown> {
  const client = await sdkClient(args, { env });
  try {
    return await client.callTool({ name: "write_file", arguments: { path, content: "{}" } });
  } finally {
    await client.close();
  }
}

describe("strict asks in a desktop dialog when the client cannot ask, with --dialog auto", () => {
  it("Allow in the dialog lets the call through; the dialog names the exact effect", async () => {
    const { env, record, fakes, manifest } = desktop("yes");
    const r = await writeOnce(STRICT_DIALOG, env, manifest);
    expect((r as { isError?: boolean }).isError).toBeFalsy();
    expect(calls(record)).toHaveLength(1);
    expect(existsSync(manifest)).toBe(true);
    const shown = fakes.shown();
    expect(shown.map((s) => s.tool)).toEqual(["zenity"]);
    expect(shown[0]?.argv).toContain("--question");
    expect(shown[0]?.argv.find((a) => a.startsWith("--text="))).toContain(`- write ${manifest}`);
    // Nothing waits out of band: the dialog answered it.
    expect(pendingIds(env)).toEqual([]);
  });

  it("Deny is a no: refused, the server never saw it, and nothing waits", async () => {
    const { env, record, fakes, manifest } = desktop("no");
    const r = await writeOnce(STRICT_DIALOG, env, manifest);
    expect((r as { isError?: boolean }).isError).toBe(true);
    expect(textOf(r)).toContain("the user did not allow it, or the question went unanswered");
    expect(textOf(r)).toContain("(the dialog ended without a yes (exit code 1))");
    expect(fakes.shown()).toHaveLength(1);
    expect(calls(record)).toEqual([]);
    expect(existsSync(manifest)).toBe(false);
    expect(pendingIds(env)).toEqual([]);
  });

  it("a dialog nobody answers is a no at the ask timeout, and is closed", async () => {
    const { env, record, fakes, manifest } = desktop("hang");
    // Long enough for the fake to start and record itself on a loaded machine.
    env.EFFECTGATE_ASK_TIMEOUT_MS = "5000";
    const r = await writeOnce(STRICT_DIALOG, env, manifest);
    expect((r as { isError?: boolean }).isError).toBe(true);
    expect(textOf(r)).toContain("(no answer within 5 s)");
    expect(calls(record)).toEqual([]);
    const shown = fakes.shown();
    expect(shown).toHaveLength(1);
    const pid = shown[0]?.pid as number;
    expect(typeof pid).toBe("number");
    // Killed with its process group: no such process any more.
    expect(() => process.kill(pid, 0)).toThrow(expect.objectContaining({ code: "ESRCH" }));
  });

  it("a flood of questions becomes refusals, never approvals, even when every dialog says yes", async () => {
    const { env, record, fakes, manifest } = desktop("yes");
    const client = await sdkClient(STRICT_DIALOG, { env });
    const results: unknown[] = [];
    for (let i = 0; i < 7; i++)
      results.push(
        await client.callTool({ name: "write_file", arguments: { path: manifest, content: `${i}` } }),
      );
    await client.close();
    const refused = results.map((r) => (r as { isError?: boolean }).isError === true);
    expect(refused).toEqual([false, false, false, false, false, true, true]);
    expect(textOf(results[5])).toContain("too many questions: more than 5 within 60 s, none for 300 s");
    expect(textOf(results[6])).toContain("too many questions: no desktop question for");
    // Five dialogs, five calls at the server; the other two were never shown and never sent.
    expect(fakes.shown()).toHaveLength(5);
    expect(calls(record)).toHaveLength(5);
  });

  it("a question with quotes, $(...), backticks and newlines reaches the dialog as data", async () => {
    const { home, env, record, fakes } = desktop("no");
    const folder = `it's "x" $(touch ${join(home, "PWNED")}) \`touch ${join(home, "PWNED2")}\`\nline`;
    const path = join(home, "proj", folder, ".vscode", "tasks.json");
    const client = await sdkClient(STRICT_DIALOG, { env, cwd: home });
    const r = await client.callTool({ name: "write_file", arguments: { path, content: "{}" } });
    await client.close();
    expect((r as { isError?: boolean }).isError).toBe(true);
    const text = fakes.shown()[0]?.argv.find((a) => a.startsWith("--text=")) ?? "";
    // The question shows the line break as \n (ask-text.ts); zenity is given it as it is.
    expect(text).toContain(
      `it's "x" $(touch ${join(home, "PWNED")}) \`touch ${join(home, "PWNED2")}\`\\nline`,
    );
    for (const f of ["PWNED", "PWNED2"]) expect(existsSync(join(home, f))).toBe(false);
    expect(calls(record)).toEqual([]);
  });
});

describe("when no dialog is shown the question waits for `effectgate allow`, as before", () => {
  it("off by default: without --dialog or ask.dialog no dialog opens", async () => {
    const { env, record, fakes, manifest } = desktop("yes");
    const r = await writeOnce(["--level", "strict", ...SERVER], env, manifest);
    expect((r as { isError?: boolean }).isError).toBe(true);
    expect(fakes.shown()).toEqual([]);
    expect(pendingIds(env)).toHaveLength(1);
    expect(calls(record)).toEqual([]);
  });

  it("the policy's ask.dialog: auto turns dialogs on; --dialog off turns them off again", async () => {
    const { home, env, record, fakes, manifest } = desktop("yes");
    const policy = join(home, "policy.yaml");
    writeFileSync(
      policy,
      'version: 1\nmode: strict\nask:\n  dialog: auto\npaths:\n  confirm: ["**/.vscode/tasks.json"]\n',
    );
    const off = await writeOnce(["--policy", policy, "--dialog", "off", ...SERVER], env, manifest);
    expect((off as { isError?: boolean }).isError).toBe(true);
    expect(fakes.shown()).toEqual([]);
    const on = await writeOnce(["--policy", policy, ...SERVER], env, manifest);
    expect((on as { isError?: boolean }).isError).toBeFalsy();
    expect(fakes.shown()).toHaveLength(1);
    expect(calls(record)).toHaveLength(1);
  });

  it("without a display no dialog opens", async () => {
    const { env, record, fakes, manifest } = desktop("yes", LINUX_TOOLS, false);
    const r = await writeOnce(STRICT_DIALOG, env, manifest);
    expect((r as { isError?: boolean }).isError).toBe(true);
    expect(fakes.shown()).toEqual([]);
    expect(pendingIds(env)).toHaveLength(1);
    expect(calls(record)).toEqual([]);
  });

  it("with only notify-send, the waiting question is announced there, with its id", async () => {
    const { env, record, fakes, manifest } = desktop("yes", { "notify-send": "notify-send" });
    const r = await writeOnce(STRICT_DIALOG, env, manifest);
    expect((r as { isError?: boolean }).isError).toBe(true);
    const [id] = pendingIds(env);
    expect(textOf(r)).toContain(`effectgate allow ${id}`);
    // The announcement is started and not waited for.
    for (let i = 0; i < 100 && fakes.shown().length === 0; i++)
      await new Promise((res) => setTimeout(res, 50));
    expect(fakes.shown().map((s) => s.tool)).toEqual(["notify-send"]);
    expect(fakes.shown()[0]?.argv).toEqual([
      "--app-name=effectgate",
      "effectgate holds a call",
      `To allow it, run: effectgate allow ${id}`,
    ]);
    expect(calls(record)).toEqual([]);
  });

  it("--dialog takes only auto or off", () => {
    const r = spawnSync(process.execPath, [CLI, "--dialog", "always", ...SERVER], { encoding: "utf8" });
    expect(r.status).toBe(2);
    expect(r.stderr).toContain('expected auto or off, got "always"');
  });
});
