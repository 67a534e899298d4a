// Real desktop dialogs (issue 23): the built CLI at --level strict --dialog auto, the official
// SDK client (it declares no elicitation), the real filesystem server, and Debian's real zenity
// and kdialog on a private Xvfb display. xdotool finds the window by its title and presses keys
// in it, as a person would. Judged by what reached the disk, and for zenity's text, by the pixels
// it drew. CI installs the programs (.ci/run);
// there a missing one is a failure, not a reason to skip.
import { execFileSync, spawn, type ChildProcess } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { FILESYSTEM_SERVER, sandbox, sdkClient } from "./harness.js";

const PROGRAMS = ["Xvfb", "zenity", "kdialog", "xdotool"] as const;
const where = (p: string): string | undefined =>
  ["/usr/bin", "/bin", "/usr/local/bin"].map((d) => join(d, p)).find((f) => existsSync(f));
const missing = PROGRAMS.filter((p) => where(p) === undefined);
if (missing.length > 0) {
  if (process.env["CI"] === "true")
    throw new Error(
      `${missing.join(", ")} missing: .ci/run installs Debian's xvfb, zenity, kdialog, xdotool`,
    );
  console.warn(
    `\n!!! SKIPPING the real-dialog checks: ${missing.join(", ")} missing (apt-get install -y xvfb zenity kdialog xdotool)\n`,
  );
}
const bin = (p: (typeof PROGRAMS)[number]): string => where(p) as string;

let xvfb: ChildProcess | undefined;
let display = "";
let scratch = "";

/** A display number no X server uses (neither its lock file nor its socket exists). */
function freeDisplay(): number {
  for (let n = 90 + (process.pid % 50); n < 400; n++)
    if (!existsSync(`/tmp/.X${n}-lock`) && !existsSync(`/tmp/.X11-unix/X${n}`)) return n;
  throw new Error("no free X display number between 90 and 400");
}

beforeAll(async () => {
  if (missing.length > 0) return;
  scratch = mkdtempSync(join(tmpdir(), "eg-xvfb-"));
  const n = freeDisplay();
  display = `:${n}`;
  // -fbdir: the screen is also a file (XWD), read back to compare what two dialogs showed.
  xvfb = spawn(bin("Xvfb"), [display, "-nolisten", "tcp", "-screen", "0", "800x600x24", "-fbdir", scratch], {
    stdio: "ignore",
  });
  let exited: number | null | undefined;
  xvfb.on("exit", (code) => (exited = code));
  for (let i = 0; i < 200 && !existsSync(`/tmp/.X11-unix/X${n}`); i++) {
    if (exited !== undefined) throw new Error(`Xvfb ${display} exited with ${exited}`);
    await new Promise((r) => setTimeout(r, 50));
  }
  if (!existsSync(`/tmp/.X11-unix/X${n}`)) throw new Error(`Xvfb ${display} did not start`);
}, 30_000);

afterAll(() => {
  xvfb?.kill("SIGTERM");
  if (scratch !== "") rmSync(scratch, { recursive: true, force: true });
});

/** A sandbox on the Xvfb display whose PATH holds one dialog tool (a link to the real one). */
function desktop(tool: "zenity" | "kdialog"): { env: NodeJS.ProcessEnv; root: string; done: () => void } {
  const { home, env } = sandbox();
  const tools = join(home, "bin");
  mkdirSync(tools);
  symlinkSync(bin(tool), join(tools, tool));
  const runtime = join(home, "run");
  mkdirSync(runtime, { mode: 0o700 });
  delete env.WAYLAND_DISPLAY;
  Object.assign(env, { DISPLAY: display, PATH: tools, XDG_RUNTIME_DIR: runtime });
  const root = join(home, "proj");
  mkdirSync(root);
  return { env, root, done: () => rmSync(home, { recursive: true, force: true }) };
}

const xdotool = (...args: string[]): string =>
  execFileSync(bin("xdotool"), args, {
    env: { ...process.env, DISPLAY: display },
    encoding: "utf8",
    timeout: 60_000,
  }).trim();

/** Waits for effectgate's dialog, focuses it, and hands back its window, title and process. */
async function dialogWindow(): Promise<{ id: string; title: string; pid: number }> {
  // --onlyvisible: a window is found once it is mapped, and only a mapped one can take focus.
  const id = xdotool("search", "--sync", "--onlyvisible", "--name", "^effectgate").split("\n")[0] as string;
  for (let i = 0; ; i++) {
    try {
      xdotool("windowfocus", "--sync", id);
      break;
    } catch (err) {
      if (i === 20) throw err;
      await new Promise((r) => setTimeout(r, 100));
    }
  }
  return { id, title: xdotool("getwindowname", id), pid: Number(xdotool("getwindowpid", id)) };
}

/** The screen once it has stopped changing (two reads 300 ms apart are the same). */
async function settledScreen(): Promise<Buffer> {
  let last = readFileSync(join(scratch, "Xvfb_screen0"));
  for (let i = 0; i < 50; i++) {
    await new Promise((r) => setTimeout(r, 300));
    const now = readFileSync(join(scratch, "Xvfb_screen0"));
    if (now.equals(last)) return now;
    last = now;
  }
  throw new Error("the screen did not settle within 15 s");
}

/** What zenity shows when started with `args` directly: the screen, then Escape closes it. */
async function zenityScreen(args: string[]): Promise<Buffer> {
  const child = spawn(bin("zenity"), args, { env: { ...process.env, DISPLAY: display }, stdio: "ignore" });
  const gone = new Promise((r) => child.on("exit", r));
  try {
    await dialogWindow();
    return await settledScreen();
  } finally {
    xdotool("key", "Escape");
    await gone;
  }
}

/** The header record of the one session logged under `env`'s EFFECTGATE_HOME. */
function headerOf(env: NodeJS.ProcessEnv): Record<string, unknown> {
  const dir = join(env.EFFECTGATE_HOME as string, "sessions");
  const logs = readdirSync(dir).filter((f) => f.endsWith(".jsonl"));
  expect(logs).toHaveLength(1);
  const first = readFileSync(join(dir, logs[0] as string), "utf8").split("\n")[0] as string;
  return JSON.parse(first) as Record<string, unknown>;
}

/** The argv of a running process, as the kernel has it. */
const argvOf = (pid: number): string[] =>
  readFileSync(`/proc/${pid}/cmdline`, "utf8").split("\0").slice(0, -1);

/**
 * Writes `path` (a confirm at strict: paths.confirm has **\/.vscode/tasks.json) through the
 * relay and the real filesystem server, and presses `keys` in the dialog that asks (none: it is
 * left to time out). Returns the call's result and what the dialog was.
 */
async function writeThroughDialog(
  env: NodeJS.ProcessEnv,
  root: string,
  path: string,
  keys: string[],
): Promise<{ refused: boolean; text: string; title?: string; argv?: string[]; screen?: Buffer }> {
  mkdirSync(join(path, ".."), { recursive: true });
  const client = await sdkClient(
    ["--level", "strict", "--dialog", "auto", "--", process.execPath, FILESYSTEM_SERVER, root],
    { env },
  );
  try {
    const call = client.callTool({ name: "write_file", arguments: { path, content: "{}" } });
    let seen: { title: string; argv: string[]; screen: Buffer } | undefined;
    if (keys.length > 0) {
      const w = await dialogWindow();
      // GTK and Qt take the first keys only once the window has drawn.
      seen = { title: w.title, argv: argvOf(w.pid), screen: await settledScreen() };
      xdotool("key", "--clearmodifiers", ...keys);
    }
    const r = (await call) as { isError?: boolean; content: Array<{ text: string }> };
    return { refused: r.isError === true, text: r.content[0]?.text ?? "", ...seen };
  } finally {
    await client.close();
  }
}

describe.skipIf(missing.length > 0)("strict asks in a real desktop dialog on an X display", () => {
  it("zenity: Allow (Tab to it, then Return) lets the write reach the disk", async () => {
    const { env, root, done } = desktop("zenity");
    try {
      const file = join(root, ".vscode", "tasks.json");
      const r = await writeThroughDialog(env, root, file, ["Tab", "Return"]);
      expect(r.title).toBe("effectgate");
      expect(r.refused, r.text).toBe(false);
      expect(readFileSync(file, "utf8")).toBe("{}");
      // The session's header says a dialog was on offer, so eval counts its questions as asked.
      expect(headerOf(env)["ask"]).toEqual({
        channels: ["elicitation", "input_required", "dialog", "out of band"],
        dialog: "zenity",
      });
    } finally {
      done();
    }
  }, 60_000);

  it("zenity: Return takes the default button, Deny; Escape is a no too", async () => {
    const { env, root, done } = desktop("zenity");
    try {
      const file = join(root, ".vscode", "tasks.json");
      for (const key of ["Return", "Escape"]) {
        const r = await writeThroughDialog(env, root, file, [key]);
        expect(r.refused, key).toBe(true);
        expect(r.text).toContain("(the dialog ended without a yes (exit code 1))");
        expect(existsSync(file), key).toBe(false);
      }
    } finally {
      done();
    }
  }, 60_000);

  it("zenity: a dialog nobody answers is a no at the ask timeout, and its window goes", async () => {
    const { env, root, done } = desktop("zenity");
    try {
      env.EFFECTGATE_ASK_TIMEOUT_MS = "4000";
      const file = join(root, ".vscode", "tasks.json");
      const r = await writeThroughDialog(env, root, file, []);
      expect(r.refused).toBe(true);
      expect(r.text).toMatch(/\((no answer within 4 s|the dialog ended without a yes \(exit code 5\))\)/);
      expect(existsSync(file)).toBe(false);
      expect(() => xdotool("search", "--name", "^effectgate$")).toThrow();
    } finally {
      done();
    }
  }, 60_000);

  it("zenity: a path with <b>, & and a newline is given as plain text (--no-markup) and does not break it", async () => {
    const { env, root, done } = desktop("zenity");
    try {
      const folder = "<b>bold</b> & co\nline2";
      const file = join(root, folder, ".vscode", "tasks.json");
      const r = await writeThroughDialog(env, root, file, ["Tab", "Return"]);
      const argv = r.argv ?? [];
      expect(argv).toContain("--no-markup");
      // The question shows the newline as \n (ask-text.ts); zenity gets it as it is.
      expect(argv.find((a) => a.startsWith("--text="))).toContain(
        `- write ${root}/<b>bold</b> & co\\nline2/.vscode/tasks.json`,
      );
      // Markup that would not parse did not stop zenity: the window came, and Allow was read.
      expect(r.refused, r.text).toBe(false);
      expect(readFileSync(file, "utf8")).toBe("{}");
      // What it showed is the text as typed, backslash included: the same pixels as zenity
      // reading markup that spells each <, > and & as an entity and doubles each backslash
      // (markup mode reads \n as a line break). Read as markup, the raw text looks different
      // (the control: the comparison can fail).
      const given = argv.slice(1);
      const asMarkup = (text: (t: string) => string): string[] =>
        given
          .filter((a) => a !== "--no-markup")
          .map((a) => (a.startsWith("--text=") ? `--text=${text(a.slice(7))}` : a));
      const entities = (t: string): string =>
        t.replaceAll("&", "&amp;").replaceAll("<", "&lt;").replaceAll(">", "&gt;").replaceAll("\\", "\\\\");
      expect((await zenityScreen(asMarkup(entities))).equals(r.screen as Buffer)).toBe(true);
      const bold = (t: string): string => t.replaceAll(" & ", " &amp; ");
      expect((await zenityScreen(asMarkup(bold))).equals(r.screen as Buffer)).toBe(false);
    } finally {
      done();
    }
  }, 60_000);

  it("kdialog: Return takes the default, Deny; Escape is a no; only choosing Allow lets the write through", async () => {
    const { env, root, done } = desktop("kdialog");
    try {
      const file = join(root, ".vscode", "tasks.json");
      // kdialog's yes/no buttons always default to yes, so effectgate shows a choice of two,
      // Deny first and the default (decision 0133); Down moves to Allow.
      for (const [keys, why] of [
        [["Return"], "exit code 0"],
        [["Escape"], "exit code 1"],
      ] as const) {
        const r = await writeThroughDialog(env, root, file, [...keys]);
        expect(r.title).toBe("effectgate — KDialog");
        expect(r.refused, keys.join("+")).toBe(true);
        expect(r.text).toContain(`(the dialog ended without a yes (${why}))`);
        expect(existsSync(file)).toBe(false);
      }
      const yes = await writeThroughDialog(env, root, file, ["Down", "Return"]);
      expect(yes.refused, yes.text).toBe(false);
      expect(readFileSync(file, "utf8")).toBe("{}");
    } finally {
      done();
    }
  }, 90_000);

  it("kdialog: a dialog nobody answers is a no at the ask timeout; effectgate closes it (kdialog has no timeout)", async () => {
    const { env, root, done } = desktop("kdialog");
    try {
      env.EFFECTGATE_ASK_TIMEOUT_MS = "4000";
      const file = join(root, ".vscode", "tasks.json");
      const r = await writeThroughDialog(env, root, file, []);
      expect(r.refused).toBe(true);
      expect(r.text).toContain("(no answer within 4 s)");
      expect(existsSync(file)).toBe(false);
      expect(() => xdotool("search", "--name", "^effectgate")).toThrow();
    } finally {
      done();
    }
  }, 60_000);

  it("kdialog: markup in a path is escaped rich text, shown as typed", async () => {
    const { env, root, done } = desktop("kdialog");
    try {
      const folder = "<b>bold</b> & co";
      const file = join(root, folder, ".vscode", "tasks.json");
      const r = await writeThroughDialog(env, root, file, ["Escape"]);
      const text = (r.argv ?? [])[(r.argv ?? []).indexOf("--menu") + 1] ?? "";
      expect(text.startsWith("<qt><pre>")).toBe(true);
      expect(text).toContain("&#60;b&#62;bold&#60;/b&#62; &#38; co");
      expect(text).not.toContain("<b>");
      expect(r.refused).toBe(true);
      expect(existsSync(file)).toBe(false);
    } finally {
      done();
    }
  }, 60_000);
});
