// replay's filters and totals over logs the relay itself wrote (issue 24): sessions chosen by
// server, start and count; lines by refusal, tool and text; totals over what was shown.
import { spawnSync } from "node:child_process";
import { rmSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { cli, MAIN, sandbox } from "../../helpers/pins.js";
import { echoSession, tool } from "../../helpers/relay-sessions.js";

let box: ReturnType<typeof sandbox>;
let sessions: string;

beforeAll(async () => {
  box = sandbox();
  sessions = join(box.home, ".effectgate", "sessions");
  const ssh = join(box.home, ".ssh", "authorized_keys");
  // Oldest first: fs refuses a key write and reads a note; git reads one file; fs again, observed.
  await echoSession(box, { level: "enforce", name: "fs" }, [
    tool(3, "write_file", { path: ssh, content: "ssh-ed25519 AAAA attacker" }),
    tool(4, "read_file", { path: join(box.dir, "notes.md") }),
  ]);
  await echoSession(box, { level: "enforce", name: "git" }, [tool(3, "git_status", { repo_path: box.dir })]);
  await echoSession(box, { level: "observe", name: "fs" }, [tool(3, "read_file", { path: "README.md" })]);
}, 60_000);

afterAll(() => rmSync(box.dir, { recursive: true, force: true }));

const replay = (...args: string[]) => cli(box, ["replay", ...args, sessions]);
const headings = (out: string) => out.split("\n").filter((l) => l.startsWith("session "));

describe("replay filters", () => {
  it("shows allowed calls with their canonical effects and ends with totals", () => {
    const r = replay();
    expect(r.code).toBe(0);
    expect(r.stdout).toContain(`tool=read_file  read ${join(box.dir, "notes.md")}`);
    // A relative path is shown as the relay read it: from the server's working folder.
    expect(r.stdout).toContain(`tool=read_file  read ${join(box.dir, "README.md")}`);
    expect(r.stdout).toMatch(/!! REFUSED {2}tools\/call {2}id=3 {2}tool=write_file/);
    expect(r.stdout.trimEnd().split("\n").at(-1)).toBe(
      "== totals: 3 sessions, 4 calls, 1 refused, 0 failed, 0 unanswered; 0 sessions tainted; 0 pin events; 0 server stderr lines",
    );
  });

  it("--server chooses sessions by name; --last the newest of them", () => {
    expect(headings(replay("--server", "fs").stdout)).toHaveLength(2);
    expect(headings(replay("--server", "g*").stdout)).toHaveLength(1);
    const last = replay("--server", "fs", "--last", "1").stdout;
    expect(headings(last)).toHaveLength(1);
    expect(last).toContain("level observe");
    expect(last).toContain("== totals: 1 session, 1 call, 0 refused");
    expect(headings(replay("--last", "2").stdout)).toHaveLength(2);
  });

  it("--refused keeps the refused call's lines and the sessions that have one", () => {
    const out = replay("--refused").stdout;
    expect(headings(out)).toHaveLength(1);
    const lines = out.split("\n").filter((l) => l.startsWith("  +"));
    expect(lines).toHaveLength(3);
    expect(lines[0]).toContain(`tool=write_file  write ${join(box.home, ".ssh", "authorized_keys")}`);
    expect(lines[1]).toContain("!! REFUSED");
    expect(lines[2]).toContain("refused by effectgate");
    expect(out).toContain("; 3 lines shown");
  });

  it("--tool and --grep choose lines; a session with none is left out", () => {
    const t = replay("--tool", "git_*").stdout;
    expect(headings(t)).toHaveLength(1);
    expect(t).toContain("tool=git_status");
    expect(t).not.toContain("read_file");
    const g = replay("--grep", "notes\\.MD").stdout;
    expect(headings(g)).toHaveLength(1);
    expect(g.split("\n").filter((l) => l.startsWith("  +"))).toHaveLength(1);
    expect(replay("--grep", "nothing-says-this").stdout).toContain("== totals: 0 sessions");
  });

  it("--since reads the start of each session", () => {
    expect(headings(replay("--since", "2000-01-01").stdout)).toHaveLength(3);
    expect(headings(replay("--since", "30m").stdout)).toHaveLength(3);
    expect(replay("--since", "2999-01-01").stdout).toContain("== totals: 0 sessions");
  });

  it("--json ends with a totals record; filters apply to its items", () => {
    const recs = replay("--json", "--refused")
      .stdout.trim()
      .split("\n")
      .map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(recs.filter((r) => r["type"] === "item")).toHaveLength(3);
    expect(recs.at(-1)).toMatchObject({ type: "totals", sessions: 1, refused: 1, linesShown: 3 });
  });

  it.each([
    [["--last", "0"], '--last: expected a whole number from 1, got "0"'],
    [["--since", "yesterday"], "--since: expected a span back from now"],
    [["--since", "2026-02-31"], "--since: expected a span back from now"],
    [["--tool", "!read"], "--tool: expected a glob without a leading !"],
    [["--grep", "("], "--grep: expected a regular expression"],
  ])("%j is a usage error", (args, message) => {
    const r = replay(...args);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(message);
  });
});

describe("replay colour", () => {
  // A real terminal: script(1) gives the command a pty, as a user's shell would.
  const onTty = (env: NodeJS.ProcessEnv, ...args: string[]): string => {
    const cmd = [process.execPath, MAIN, "replay", ...args, sessions].map((w) => `'${w}'`).join(" ");
    const r = spawnSync("script", ["-qec", cmd, "/dev/null"], { env, encoding: "utf8", timeout: 30_000 });
    return r.stdout;
  };
  it("colours refusals red on a terminal, and never on a pipe, with NO_COLOR or --no-color", () => {
    const env: NodeJS.ProcessEnv = { ...box.env };
    delete env["NO_COLOR"];
    const tty = onTty(env, "--refused");
    // eslint-disable-next-line no-control-regex -- the colour code is what is looked for
    expect(tty).toMatch(/\x1b\[31m {2}\+\d:\d\d:\d\d\.\d{3} {2}!! REFUSED/);
    expect(onTty({ ...env, NO_COLOR: "1" }, "--refused")).not.toContain("\x1b[");
    expect(onTty(env, "--refused", "--no-color")).not.toContain("\x1b[");
    // An empty NO_COLOR does not count (no-color.org).
    expect(onTty({ ...env, NO_COLOR: "" }, "--refused")).toContain("\x1b[31m");
    expect(replay("--refused").stdout).not.toContain("\x1b[");
  });
});
