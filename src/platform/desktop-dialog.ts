/**
 * A yes/no question in a native desktop dialog: `osascript` on macOS, `zenity` or `kdialog` on
 * Linux, PowerShell on Windows (docs/decisions/0126-desktop-dialogs.md). The tool is started
 * without a shell, and the question is data: an argument of its own, or an environment variable
 * a fixed script reads. No text of the question is ever part of a script's source. Only an
 * explicit yes from the tool counts; a timeout, a crash, an unknown answer, a signal: each is a no.
 */
import { spawn } from "node:child_process";
import { accessSync, constants, statSync } from "node:fs";
import { delimiter, join } from "node:path";
import type { Platform } from "../core/types.js";

export type DialogKind = "osascript" | "zenity" | "kdialog" | "powershell";

export interface DialogTool {
  kind: DialogKind;
  /** The executable, found on PATH. */
  file: string;
}

/**
 * What this machine offers: a tool that can ask; else, on a Linux desktop, `notify-send`, which
 * can only announce; else why nothing can be shown.
 */
export type DesktopOffer = { ask: DialogTool } | { announce: string; why: string } | { none: string };

/** Executables by platform, in the order they are tried. */
const TOOLS: Record<Platform, readonly [DialogKind, string][]> = {
  darwin: [["osascript", "osascript"]],
  linux: [
    ["zenity", "zenity"],
    ["kdialog", "kdialog"],
  ],
  win32: [["powershell", "powershell.exe"]],
};

/** The first executable file called `name` in `env.PATH`, or undefined. */
function onPath(name: string, env: NodeJS.ProcessEnv, platform: Platform): string | undefined {
  const path = platform === "win32" ? (env.Path ?? env.PATH) : env.PATH;
  for (const dir of (path ?? "").split(platform === "win32" ? ";" : delimiter)) {
    // An empty entry means the working folder: never searched, the model may write there.
    if (dir === "") continue;
    const file = join(dir, name);
    try {
      if (!statSync(file).isFile()) continue;
      if (platform !== "win32") accessSync(file, constants.X_OK);
      return file;
    } catch {
      continue;
    }
  }
  return undefined;
}

/** Which dialog this machine can show; a Linux machine needs a display (X11 or Wayland). */
export function desktopOffer(env: NodeJS.ProcessEnv, platform: Platform): DesktopOffer {
  if (platform === "linux" && !env.DISPLAY && !env.WAYLAND_DISPLAY)
    return { none: "no display (neither DISPLAY nor WAYLAND_DISPLAY is set)" };
  for (const [kind, name] of TOOLS[platform]) {
    const file = onPath(name, env, platform);
    if (file !== undefined) return { ask: { kind, file } };
  }
  const names = TOOLS[platform].map(([, n]) => n).join(" or ");
  const notify = platform === "linux" ? onPath("notify-send", env, platform) : undefined;
  if (notify !== undefined) return { announce: notify, why: `neither ${names} is on PATH` };
  return { none: `${names} is not on PATH` };
}

export interface DialogCommand {
  file: string;
  args: string[];
  /** Added to the relay's environment for the tool. */
  env: Record<string, string>;
  /** Whether the tool's exit code and stdout are its explicit yes. */
  isYes: (code: number | null, stdout: string) => boolean;
}

const TITLE = "effectgate";
const ALLOW = "Allow";
const DENY = "Deny";
/** The tags kdialog's menu prints for its two items. */
const KDIALOG_ALLOW = "allow";
const KDIALOG_DENY = "deny";

// The AppleScript is fixed: the question, title and wait come in as the run handler's argv.
// Deny is the cancel button, so Escape and Deny both end in error -128 (exit 1); the dialog gives
// up by itself when the relay stops waiting.
const APPLESCRIPT = [
  "on run argv",
  `set r to display dialog (item 1 of argv) with title (item 2 of argv) buttons {"${DENY}", "${ALLOW}"} default button "${DENY}" cancel button "${DENY}" with icon caution giving up after ((item 3 of argv) as integer)`,
  'if gave up of r then return "gave up"',
  "return button returned of r",
  "end run",
];

// The PowerShell script is fixed too, and holds no double quote (Windows command lines join argv
// with quotes); the question and title come from the environment. No is the default button.
const POWERSHELL = [
  "Add-Type -AssemblyName System.Windows.Forms;",
  "$r = [System.Windows.Forms.MessageBox]::Show($env:EFFECTGATE_DIALOG_TEXT, $env:EFFECTGATE_DIALOG_TITLE,",
  "'YesNo', 'Warning', 'Button2');",
  "[Console]::Out.Write([string]$r)",
].join(" ");

/**
 * kdialog guesses whether text is rich text (HTML). It is made rich on purpose, every character
 * escaped and the lines kept, so that a path like `<b>` is shown as typed and hides nothing.
 */
function kdialogText(s: string): string {
  const escaped = s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
  return `<qt><pre>${escaped}</pre></qt>`;
}

/** The argv and environment that ask `text` with `tool`, giving up after `seconds`. */
export function dialogCommand(tool: DialogTool, text: string, seconds: number): DialogCommand {
  const wait = String(Math.max(1, Math.ceil(seconds)));
  switch (tool.kind) {
    case "osascript":
      return {
        file: tool.file,
        args: [...APPLESCRIPT.flatMap((line) => ["-e", line]), text, TITLE, wait],
        env: {},
        isYes: (code, out) => code === 0 && out.trim() === ALLOW,
      };
    case "zenity":
      return {
        file: tool.file,
        args: [
          "--question",
          `--title=${TITLE}`,
          // As typed: with --no-markup zenity 3.44 reads neither markup nor backslash escapes
          // (compared pixel by pixel in tests/e2e/real-dialog.test.ts; decision 0133).
          `--text=${text}`,
          "--no-markup",
          `--ok-label=${ALLOW}`,
          `--cancel-label=${DENY}`,
          "--default-cancel",
          `--timeout=${wait}`,
        ],
        env: {},
        isYes: (code) => code === 0,
      };
    case "kdialog":
      // A choice, not yes/no buttons: kdialog's yes button is always the default, so Return
      // would allow (found on the real kdialog 22.12, tests/e2e/real-dialog.test.ts; decision
      // 0133). Deny comes first and is the default; Allow is an explicit tag on stdout, so a
      // usage error (exit 1) or any other exit is never a yes.
      return {
        file: tool.file,
        args: [
          "--title",
          TITLE,
          "--menu",
          kdialogText(text),
          KDIALOG_DENY,
          DENY,
          KDIALOG_ALLOW,
          ALLOW,
          "--default",
          DENY,
        ],
        env: {},
        isYes: (code, out) => code === 0 && out.trim() === KDIALOG_ALLOW,
      };
    case "powershell":
      return {
        file: tool.file,
        args: ["-NoProfile", "-NonInteractive", "-Command", POWERSHELL],
        env: { EFFECTGATE_DIALOG_TEXT: text, EFFECTGATE_DIALOG_TITLE: TITLE },
        isYes: (code, out) => code === 0 && out.trim() === "Yes",
      };
  }
}

export type DialogAnswer = { yes: true } | { yes: false; why: string };

/** What a tool may print before it is stopped: an answer is one word. */
const MAX_OUTPUT = 4096;

/**
 * Runs the dialog and waits for its answer, at most `timeoutMs`; `signal` ends it early (the
 * client cancelled the call). A tool still open then is killed, with what it started.
 */
export function runDialog(
  cmd: DialogCommand,
  baseEnv: NodeJS.ProcessEnv,
  timeoutMs: number,
  signal?: AbortSignal,
): Promise<DialogAnswer> {
  return new Promise((resolve) => {
    if (signal?.aborted === true) return resolve({ yes: false, why: "the client cancelled the call" });
    let out = "";
    let settled = false;
    const child = spawn(cmd.file, cmd.args, {
      env: { ...baseEnv, ...cmd.env },
      stdio: ["ignore", "pipe", "ignore"],
      shell: false,
      windowsHide: true,
      detached: process.platform !== "win32",
    });
    const stop = (): void => {
      try {
        // Its own process group: a wrapper script's children go with it.
        if (child.pid !== undefined && process.platform !== "win32") process.kill(-child.pid, "SIGKILL");
        else child.kill("SIGKILL");
      } catch {
        child.kill("SIGKILL");
      }
    };
    const finish = (a: DialogAnswer): void => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      signal?.removeEventListener("abort", onAbort);
      resolve(a);
    };
    const timer = setTimeout(() => {
      stop();
      finish({ yes: false, why: `no answer within ${Math.round(timeoutMs / 100) / 10} s` });
    }, timeoutMs);
    const onAbort = (): void => {
      stop();
      finish({ yes: false, why: "the client cancelled the call" });
    };
    signal?.addEventListener("abort", onAbort, { once: true });
    child.stdout.setEncoding("utf8");
    child.stdout.on("data", (chunk: string) => {
      out += chunk;
      if (out.length > MAX_OUTPUT) {
        stop();
        finish({ yes: false, why: `the dialog printed more than ${MAX_OUTPUT} characters` });
      }
    });
    child.on("error", (err) => finish({ yes: false, why: `the dialog could not start: ${err.message}` }));
    child.on("close", (code, sig) => {
      if (cmd.isYes(sig === null ? code : null, out)) return finish({ yes: true });
      const how = sig !== null ? `stopped by ${sig}` : `exit code ${code ?? "none"}`;
      finish({ yes: false, why: `the dialog ended without a yes (${how})` });
    });
  });
}
