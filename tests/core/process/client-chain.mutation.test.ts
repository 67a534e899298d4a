// Which ancestor is the client (issue 17: shared taint missed relays started through sh -c, npx
// or a .cmd shim). Launchers are walked past; a terminal's shell or any other program is the client.
import { describe, expect, it } from "vitest";
import {
  clientKey,
  clientOf,
  isLauncher,
  type ProcessFacts,
} from "../../../src/core/process/client-chain.js";

let next = 100;
const p = (argv: string[], argvKnown = true, start?: string): ProcessFacts => ({
  pid: next++,
  argv,
  argvKnown,
  ...(start === undefined ? {} : { start }),
});
const launcher = (...argv: string[]) => isLauncher(p(argv));

describe("isLauncher", () => {
  it("takes a shell for one when it runs a command or a script", () => {
    expect(launcher("sh", "-c", "effectgate -- x")).toBe(true);
    expect(launcher("/bin/bash", "-lc", "x")).toBe(true);
    expect(launcher("/usr/bin/zsh", "-e", "-c", "x")).toBe(true);
    expect(launcher("dash", "/usr/local/bin/wrapper.sh")).toBe(true);
    expect(launcher("bash", "--", "x")).toBe(true);
    expect(launcher("sh", "+x", "script.sh")).toBe(true);
    for (const shell of ["sh", "bash", "dash", "zsh", "ksh", "mksh", "ash", "fish", "busybox", "pwsh"])
      expect(launcher(`/bin/${shell}`, "-c", "x"), shell).toBe(true);
    expect(launcher("pwsh", "-File", "start.ps1")).toBe(true);
  });

  it("does not take a terminal's shell for one", () => {
    expect(launcher("-bash")).toBe(false);
    expect(launcher("bash")).toBe(false);
    expect(launcher("zsh", "-l")).toBe(false);
    expect(launcher("bash", "--login", "-i")).toBe(false);
    expect(launcher("-zsh", "-c", "x")).toBe(false);
    expect(launcher("bash", "--")).toBe(false);
    expect(launcher("bash", "--norc")).toBe(false);
    expect(launcher("sh", "+x")).toBe(false);
    expect(launcher("sh", "-e", "-u")).toBe(false);
    // A path with a space is read as one word when it has arguments.
    expect(launcher("/home/u/my tools/bash", "-c", "x")).toBe(true);
  });

  it("takes package runners for one, by name, by script or by title", () => {
    expect(launcher("npx", "-y", "effectgate")).toBe(true);
    expect(launcher("/usr/bin/node", "/usr/lib/node_modules/npm/bin/npx-cli.js", "effectgate")).toBe(true);
    expect(launcher("node", "--no-warnings", "/x/npm-cli.js", "exec")).toBe(true);
    expect(launcher("node", "/x/pnpm.cjs", "dlx", "e")).toBe(true);
    expect(launcher("node", "/x/yarn.js")).toBe(true);
    expect(launcher("bunx", "effectgate")).toBe(true);
    expect(launcher("bun", "x", "effectgate")).toBe(true);
    expect(launcher("corepack", "pnpm")).toBe(true);
    // npm rewrites its title: one word holding spaces, padded.
    expect(launcher("npm exec effectgate               ")).toBe(true);
    expect(launcher("npm exec effectgate", "", "")).toBe(true);
    expect(launcher("  npx -y effectgate  ", " ")).toBe(true);
    expect(launcher("npx   ")).toBe(true);
    expect(launcher("node  /x/npx-cli.js")).toBe(true);
    expect(launcher("/usr/bin/nodejs", "/x/npx-cli.js")).toBe(true);
    expect(launcher("C:\\Program Files\\nodejs\\npx.cmd", "e")).toBe(true);
    for (const r of [
      "npm",
      "pnpm",
      "pnpx",
      "yarn",
      "yarnpkg",
      "corepack",
      "npx-cli.mjs",
      "yarn.cjs",
      "npm.exe",
    ])
      expect(launcher(r, "x"), r).toBe(true);
  });

  it("does not take a program that runs node, or node itself, for one", () => {
    expect(launcher("node", "/home/u/.claude/local/cli.js")).toBe(false);
    expect(launcher("node")).toBe(false);
    expect(launcher("bun", "run", "x.ts")).toBe(false);
    expect(launcher("/Applications/Cursor.app/Contents/MacOS/Cursor")).toBe(false);
    expect(launcher("python3", "-c", "x")).toBe(false);
    expect(launcher("claude desktop")).toBe(false);
    expect(launcher()).toBe(false);
    expect(launcher("node", "x")).toBe(false);
    expect(launcher("/usr/bin/python3", "/x/npm-cli.js")).toBe(false);
    expect(launcher("npxx")).toBe(false);
    expect(launcher("xnpx")).toBe(false);
    expect(launcher("node", "/x/npx-cli.js.map")).toBe(false);
  });

  it("on Windows, knows launchers by their executable's name", () => {
    const win = (exe: string) => isLauncher(p([exe], false));
    expect(win("cmd.exe")).toBe(true);
    expect(win("CMD.EXE")).toBe(true);
    expect(win("powershell.exe")).toBe(true);
    expect(win("pwsh.exe")).toBe(true);
    expect(win("npx.exe")).toBe(true);
    expect(win("sh.exe")).toBe(true);
    expect(win("bash.exe")).toBe(true);
    expect(win("node.exe")).toBe(false);
    expect(win("Claude.exe")).toBe(false);
  });
});

describe("clientOf", () => {
  it("walks past every launcher to the first program that is not one", () => {
    const client = p(["/opt/Cursor/cursor"], true, "777");
    const chain = [
      p(["sh", "-c", "effectgate"]),
      p(["npm exec effectgate"]),
      p(["sh", "-c", "npx -y e"]),
      client,
    ];
    expect(clientOf(chain)).toBe(client);
    expect(clientOf([client])).toBe(client);
    expect(clientOf([])).toBeUndefined();
    // All launchers as far as could be read: the last read stands for the client.
    const last = p(["sh", "-c", "x"]);
    expect(clientOf([p(["bash", "-c", "y"]), last])).toBe(last);
  });

  it("on Windows, walks past node.exe between two launchers (a .cmd shim run by npx)", () => {
    const claude = p(["Claude.exe"], false);
    const chain = [p(["cmd.exe"], false), p(["node.exe"], false), p(["cmd.exe"], false), claude];
    expect(clientOf(chain)).toBe(claude);
    // node.exe with no launcher above it is the client (Claude Code started from Explorer, say).
    const node = p(["node.exe"], false);
    expect(clientOf([p(["cmd.exe"], false), node, p(["explorer.exe"], false)])).toBe(node);
    expect(clientOf([node])).toBe(node);
    expect(clientOf([p(["cmd.exe"], false), node])).toBe(node);
    // Only a runtime is walked past that way: any other program is the client.
    const app = p(["Claude.exe"], false);
    expect(clientOf([p(["cmd.exe"], false), app, p(["cmd.exe"], false), p(["explorer.exe"], false)])).toBe(
      app,
    );
    // With nothing below it, node.exe started that cmd.exe itself: it is the client.
    expect(clientOf([node, p(["cmd.exe"], false)])).toBe(node);
    const bun = p(["bun.exe"], false);
    const top = p(["Code.exe"], false);
    expect(clientOf([p(["cmd.exe"], false), bun, p(["pwsh.exe"], false), top])).toBe(top);
    // A node process whose command line is known is judged by it.
    const known = p(["node", "cli.js"]);
    expect(clientOf([p(["sh", "-c", "x"]), known, p(["sh", "-c", "y"])])).toBe(known);
  });
});

describe("clientKey", () => {
  it("is the pid, with the start time when known", () => {
    expect(clientKey({ pid: 42, start: "9001" })).toBe("42-9001");
    expect(clientKey({ pid: 42 })).toBe("42");
  });
});
