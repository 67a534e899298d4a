// The desktop dialog tools, played by fakes on a temporary PATH that record how they were started
// (tests/helpers/fake-dialog.ts). What matters: which tool is found, that only its explicit yes
// counts, that a dialog nobody answers is killed at the timeout, and that a hostile question
// reaches the tool as data, never as script source or shell words.
import { chmodSync, existsSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import {
  desktopOffer,
  dialogCommand,
  runDialog,
  type DialogKind,
} from "../../src/platform/desktop-dialog.js";
import type { Platform } from "../../src/core/types.js";
import { fakeDialogs, type FakeDialogs } from "../helpers/fake-dialog.js";

const made: FakeDialogs[] = [];
const folders: string[] = [];
afterEach(() => {
  for (const f of made.splice(0)) f.remove();
  for (const d of folders.splice(0)) rmSync(d, { recursive: true, force: true });
});

function fakes(names: Record<string, string>): FakeDialogs {
  const f = fakeDialogs(names);
  made.push(f);
  return f;
}

const FILE: Record<DialogKind, [string, Platform]> = {
  zenity: ["zenity", "linux"],
  kdialog: ["kdialog", "linux"],
  osascript: ["osascript", "darwin"],
  powershell: ["powershell.exe", "win32"],
};

describe("desktopOffer: which dialog this machine can show", () => {
  it("on Linux needs a display, then takes zenity before kdialog", () => {
    const f = fakes({ zenity: "zenity", kdialog: "kdialog" });
    expect(desktopOffer({ PATH: f.bin }, "linux")).toEqual({
      none: "no display (neither DISPLAY nor WAYLAND_DISPLAY is set)",
    });
    expect(desktopOffer({ PATH: f.bin, DISPLAY: ":0" }, "linux")).toEqual({
      ask: { kind: "zenity", file: join(f.bin, "zenity") },
    });
    const k = fakes({ kdialog: "kdialog" });
    expect(desktopOffer({ PATH: k.bin, WAYLAND_DISPLAY: "wayland-0" }, "linux")).toEqual({
      ask: { kind: "kdialog", file: join(k.bin, "kdialog") },
    });
  });

  it("with only notify-send it can announce, not ask; with nothing it says what is missing", () => {
    const n = fakes({ "notify-send": "notify-send" });
    expect(desktopOffer({ PATH: n.bin, DISPLAY: ":0" }, "linux")).toEqual({
      announce: join(n.bin, "notify-send"),
      why: "neither zenity or kdialog is on PATH",
    });
    const empty = fakes({});
    expect(desktopOffer({ PATH: empty.bin, DISPLAY: ":0" }, "linux")).toEqual({
      none: "zenity or kdialog is not on PATH",
    });
  });

  it("skips a file that cannot be run and an empty PATH entry (the working folder)", () => {
    const dir = mkdtempSync(join(tmpdir(), "effectgate-dialog-path-"));
    folders.push(dir);
    writeFileSync(join(dir, "zenity"), "#!/bin/sh\nexit 0\n");
    chmodSync(join(dir, "zenity"), 0o644);
    const k = fakes({ kdialog: "kdialog" });
    expect(desktopOffer({ PATH: `:${dir}:${k.bin}`, DISPLAY: ":0" }, "linux")).toEqual({
      ask: { kind: "kdialog", file: join(k.bin, "kdialog") },
    });
  });

  it("on macOS and Windows asks without a display variable", () => {
    const m = fakes({ osascript: "osascript" });
    expect(desktopOffer({ PATH: m.bin }, "darwin")).toEqual({
      ask: { kind: "osascript", file: join(m.bin, "osascript") },
    });
    const w = fakes({ "powershell.exe": "powershell" });
    expect(desktopOffer({ Path: w.bin }, "win32")).toEqual({
      ask: { kind: "powershell", file: join(w.bin, "powershell.exe") },
    });
  });
});

// Quotes of every kind, a command substitution, backticks, a newline, markup and a backslash.
const HOSTILE = `effectgate: allow "x"? it's $(touch PWNED) \`touch PWNED2\`\nsecond line <b>bold</b> & \\n end`;

describe.each(Object.keys(FILE) as DialogKind[])("runDialog with %s", (kind) => {
  const [file, platform] = FILE[kind];

  async function run(
    answer: "yes" | "no" | "hang" | "odd" | "crash",
    text = "effectgate: allow it?",
    ms = 20_000,
  ) {
    const f = fakes({ [file]: kind });
    const env = { ...process.env, DISPLAY: ":0", ...f.env(answer) };
    const offer = desktopOffer(env, platform);
    if (!("ask" in offer)) throw new Error(`no ${kind} found`);
    const cmd = dialogCommand(offer.ask, text, ms / 1000);
    return { answer: await runDialog(cmd, env, ms), shown: f.shown(), f };
  }

  it("an explicit yes is a yes", async () => {
    const { answer, shown } = await run("yes");
    expect(answer).toEqual({ yes: true });
    expect(shown).toHaveLength(1);
  });

  it.each(["no", "odd", "crash"] as const)("%s is a no", async (how) => {
    const { answer } = await run(how);
    expect(answer.yes).toBe(false);
    expect(answer.yes ? "" : answer.why).toMatch(
      /^the dialog ended without a yes \((exit code \d+|stopped by SIGSEGV)\)$/,
    );
  });

  it("a dialog nobody answers is a no at the timeout, and is closed", async () => {
    // Long enough for the fake to start and record itself on a loaded machine.
    const { answer, shown } = await run("hang", "effectgate: allow it?", 3000);
    expect(answer).toEqual({ yes: false, why: "no answer within 3 s" });
    const pid = (shown[0] as { pid: number }).pid;
    // Killed with SIGKILL: gone, or at most a zombie for a moment.
    await new Promise((r) => setTimeout(r, 100));
    expect(() => process.kill(pid, 0)).toThrow();
  });

  it("a hostile question reaches the tool as data and runs nothing", async () => {
    const cwd = process.cwd();
    const dir = mkdtempSync(join(tmpdir(), "effectgate-dialog-cwd-"));
    folders.push(dir);
    process.chdir(dir);
    try {
      const { answer, shown } = await run("no", HOSTILE);
      expect(answer.yes).toBe(false);
      const s = shown[0];
      if (s === undefined) throw new Error("nothing was shown");
      if (kind === "zenity") expect(s.argv).toContain(`--text=${HOSTILE}`);
      if (kind === "zenity") expect(s.argv).toContain("--no-markup");
      if (kind === "osascript") {
        // The script is the -e lines; the question is the first argument after them.
        expect(s.argv.slice(s.argv.lastIndexOf("-e") + 2)).toEqual([HOSTILE, "effectgate", "20"]);
        expect(s.argv.filter((_, i) => s.argv[i - 1] === "-e").join("\n")).not.toContain("PWNED");
      }
      if (kind === "powershell") {
        expect(s.text).toBe(HOSTILE);
        expect(s.argv.join(" ")).not.toContain("PWNED");
        expect(s.argv.slice(0, 3)).toEqual(["-NoProfile", "-NonInteractive", "-Command"]);
      }
      // A choice of two, Deny first and the default: kdialog's yes/no buttons default to yes.
      if (kind === "kdialog")
        expect(s.argv.slice(s.argv.indexOf("--menu") + 2)).toEqual([
          "deny",
          "Deny",
          "allow",
          "Allow",
          "--default",
          "Deny",
        ]);
      if (kind === "kdialog")
        expect(s.argv).toContain(
          "<qt><pre>effectgate: allow &#34;x&#34;? it&#39;s $(touch PWNED) `touch PWNED2`\nsecond line &#60;b&#62;bold&#60;/b&#62; &#38; \\n end</pre></qt>",
        );
      expect(existsSync(join(dir, "PWNED"))).toBe(false);
      expect(existsSync(join(dir, "PWNED2"))).toBe(false);
    } finally {
      process.chdir(cwd);
    }
  });
});

describe("runDialog", () => {
  it("a cancel (the client cancelled the call) ends the dialog as a no", async () => {
    const f = fakes({ zenity: "zenity" });
    const env = { ...process.env, ...f.env("hang") };
    const cmd = dialogCommand({ kind: "zenity", file: join(f.bin, "zenity") }, "effectgate: allow?", 20);
    const stop = new AbortController();
    const answer = runDialog(cmd, env, 20_000, stop.signal);
    // Cancel once the fake is up.
    while (f.shown().length === 0) await new Promise((r) => setTimeout(r, 20));
    stop.abort();
    expect(await answer).toEqual({ yes: false, why: "the client cancelled the call" });
  });

  it("a tool that cannot be started is a no, with the reason", async () => {
    const cmd = dialogCommand({ kind: "zenity", file: "/nonexistent/zenity" }, "effectgate: allow?", 20);
    const answer = await runDialog(cmd, process.env, 20_000);
    expect(answer.yes).toBe(false);
    expect(answer.yes ? "" : answer.why).toMatch(/^the dialog could not start: .*ENOENT/);
  });
});
