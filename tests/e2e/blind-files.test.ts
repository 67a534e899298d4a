import { spawnSync } from "node:child_process";
import {
  chmodSync,
  existsSync,
  mkdirSync,
  readFileSync,
  realpathSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import {
  FILESYSTEM_SERVER as FILESYSTEM,
  RawClient,
  RECORDING_SERVER,
  received,
  sandbox,
  sdkClient,
} from "./harness.js";

// Issue 17's file-side breaches on the real reference filesystem server at enforce, with the
// default policy, each judged by the disk or by what the user's next ordinary command does: a
// real `git status` runs core.fsmonitor, a real `python3` reads a .pth, a program on PATH runs.
// Every case also runs with the checks off (EFFECTGATE_OFF=1) and must then really breach.

type Call = { name: string; arguments: Record<string, unknown> };
type Answer = { isError: boolean; text: string };

const made: string[] = [];
afterEach(() => {
  for (const dir of made.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function box(): { home: string; env: NodeJS.ProcessEnv; project: string } {
  const s = sandbox();
  const home = realpathSync(s.home);
  made.push(home);
  const project = join(home, "project");
  mkdirSync(project);
  return { home, env: { ...s.env, HOME: home, EFFECTGATE_HOME: join(home, ".effectgate") }, project };
}

/** The calls through effectgate at enforce (all at once when `parallel`), the server allowed `allowed`. */
async function session(
  env: NodeJS.ProcessEnv,
  allowed: string,
  calls: Call[],
  opts: { parallel?: boolean; options?: string[]; off?: boolean } = {},
): Promise<Answer[]> {
  const client = await sdkClient(
    ["--level", "enforce", ...(opts.options ?? []), "--", process.execPath, FILESYSTEM, allowed],
    { env: opts.off === true ? { ...env, EFFECTGATE_OFF: "1" } : env, cwd: allowed, name: "blind-files" },
  );
  const shape = (r: Awaited<ReturnType<typeof client.callTool>>): Answer => ({
    isError: r.isError === true,
    text: JSON.stringify(r.content),
  });
  try {
    if (opts.parallel === true) return (await Promise.all(calls.map((c) => client.callTool(c)))).map(shape);
    const out: Answer[] = [];
    for (const c of calls) out.push(shape(await client.callTool(c)));
    return out;
  } finally {
    await client.close();
  }
}

const refused = (a: Answer | undefined): boolean =>
  a?.isError === true && a.text.includes("effectgate refused");

/** A script that leaves a marker when git runs it as core.fsmonitor. */
function fsmonitor(home: string): { script: string; marker: string } {
  const marker = join(home, "FSMONITOR-RAN");
  const script = join(home, "monitor.sh");
  writeFileSync(script, `#!/bin/sh\ntouch '${marker}'\n`);
  chmodSync(script, 0o755);
  return { script, marker };
}

const CONFIG = (script: string): string => `[core]\n\tbare = false\n\tfsmonitor = ${script}\n`;

/** A git directory made by git itself, without a config (it is what the attack writes). */
function preparedGitDir(home: string, at: string, parts: { head?: boolean; config?: string } = {}): void {
  spawnSync("git", ["init", "-q", join(home, "template")], { env: { ...process.env, HOME: home } });
  mkdirSync(join(at, "objects"), { recursive: true });
  mkdirSync(join(at, "refs", "heads"), { recursive: true });
  if (parts.head !== false) writeFileSync(join(at, "HEAD"), "ref: refs/heads/main\n");
  if (parts.config !== undefined) writeFileSync(join(at, "config"), parts.config);
}

/** `git status` in `dir`, as the user's next ordinary command. */
function gitStatus(dir: string, home: string): void {
  spawnSync("git", ["status"], {
    cwd: dir,
    env: { ...process.env, HOME: home, GIT_CEILING_DIRECTORIES: home },
  });
}

describe("breach 1: git configuration wherever git's discovery finds it", () => {
  it("a .git FILE saying gitdir: ../prep is refused; with the checks off git runs prep's fsmonitor", async () => {
    for (const off of [false, true]) {
      const { home, env, project } = box();
      const { script, marker } = fsmonitor(home);
      preparedGitDir(home, join(project, "prep"), { config: CONFIG(script) });
      mkdirSync(join(project, "app"));
      const [a] = await session(
        env,
        project,
        [
          {
            name: "write_file",
            arguments: { path: join(project, "app", ".git"), content: "gitdir: ../prep\n" },
          },
        ],
        { off },
      );
      gitStatus(join(project, "app"), home);
      if (off) expect(existsSync(marker), "control: the breach is real").toBe(true);
      else {
        expect(refused(a), a?.text).toBe(true);
        expect(existsSync(join(project, "app", ".git"))).toBe(false);
        expect(existsSync(marker)).toBe(false);
      }
    }
  });

  it("config written into the folder a .git file points to is refused (it holds HEAD, objects, refs)", async () => {
    for (const off of [false, true]) {
      const { home, env, project } = box();
      const { script, marker } = fsmonitor(home);
      preparedGitDir(home, join(project, "vendor", "state"));
      mkdirSync(join(project, "app"));
      writeFileSync(join(project, "app", ".git"), "gitdir: ../vendor/state\n");
      const [a] = await session(
        env,
        project,
        [
          {
            name: "write_file",
            arguments: { path: join(project, "vendor", "state", "config"), content: CONFIG(script) },
          },
        ],
        { off },
      );
      gitStatus(join(project, "app"), home);
      if (off) expect(existsSync(marker), "control: the breach is real").toBe(true);
      else {
        expect(refused(a), a?.text).toBe(true);
        expect(existsSync(marker)).toBe(false);
      }
    }
  });

  it("the HEAD that completes a git directory holding an attacker's config is refused", async () => {
    for (const off of [false, true]) {
      const { home, env, project } = box();
      const { script, marker } = fsmonitor(home);
      preparedGitDir(home, join(project, "vendor", "state"), { head: false, config: CONFIG(script) });
      mkdirSync(join(project, "app"));
      writeFileSync(join(project, "app", ".git"), "gitdir: ../vendor/state\n");
      const [a] = await session(
        env,
        project,
        [
          {
            name: "write_file",
            arguments: { path: join(project, "vendor", "state", "HEAD"), content: "ref: refs/heads/main\n" },
          },
        ],
        { off },
      );
      gitStatus(join(project, "app"), home);
      if (off) expect(existsSync(marker), "control: the breach is real").toBe(true);
      else {
        expect(refused(a), a?.text).toBe(true);
        expect(existsSync(join(project, "vendor", "state", "HEAD"))).toBe(false);
        expect(existsSync(marker)).toBe(false);
      }
    }
  });

  it("HEAD, objects, refs and config sent at once (parallel calls): the one that completes the set is refused", async () => {
    for (const off of [false, true]) {
      const { home, env, project } = box();
      const { script, marker } = fsmonitor(home);
      const state = join(project, "state");
      mkdirSync(state);
      mkdirSync(join(project, "app"));
      writeFileSync(join(project, "app", ".git"), "gitdir: ../state\n");
      const write = (path: string, content: string): Call => ({
        name: "write_file",
        arguments: { path, content },
      });
      // The folders first (create_directory), then the files, all without waiting for answers.
      const answers = await session(
        env,
        project,
        [
          { name: "create_directory", arguments: { path: join(state, "objects", "info") } },
          { name: "create_directory", arguments: { path: join(state, "refs", "heads") } },
          write(join(state, "HEAD"), "ref: refs/heads/main\n"),
          write(join(state, "config"), CONFIG(script)),
        ],
        { parallel: true, off },
      );
      gitStatus(join(project, "app"), home);
      if (off) expect(existsSync(marker), "control: the breach is real").toBe(true);
      else {
        expect(answers.filter(refused).length, JSON.stringify(answers)).toBeGreaterThan(0);
        expect(existsSync(marker)).toBe(false);
      }
    }
  });
});

describe("breach 2: effectgate's own files by identity", () => {
  it("--policy ./team.yaml is neither written nor read through the server, by any name", async () => {
    for (const off of [false, true]) {
      const { env, project } = box();
      const team = join(project, "team.yaml");
      const original = 'version: 1\nmode: enforce\npaths:\n  deny: ["~/.ssh/**"]\n';
      writeFileSync(team, original);
      symlinkSync(team, join(project, "rules.yaml"));
      const answers = await session(
        env,
        project,
        [
          { name: "write_file", arguments: { path: join(project, "rules.yaml"), content: "version: 1\n" } },
          { name: "read_text_file", arguments: { path: "team.yaml" } },
        ],
        { off, options: ["--policy", team] },
      );
      if (off) expect(readFileSync(team, "utf8"), "control: the breach is real").toBe("version: 1\n");
      else {
        expect(answers.every(refused), JSON.stringify(answers)).toBe(true);
        expect(readFileSync(team, "utf8")).toBe(original);
      }
    }
  });

  it("EFFECTGATE_HOME under another name: session logs are not read, taint markers not moved", async () => {
    for (const off of [false, true]) {
      const { home, env, project } = box();
      const state = join(project, "eg-state");
      mkdirSync(join(state, "taint"), { recursive: true });
      writeFileSync(join(state, "taint", "marker.json"), "{}");
      const answers = await session(
        { ...env, EFFECTGATE_HOME: state },
        project,
        [
          { name: "list_directory", arguments: { path: join(state, "sessions") } },
          {
            name: "move_file",
            arguments: { source: join(state, "taint"), destination: join(project, "taint-away") },
          },
        ],
        { off },
      );
      if (off) expect(existsSync(join(project, "taint-away")), "control: the breach is real").toBe(true);
      else {
        expect(answers.every(refused), JSON.stringify(answers)).toBe(true);
        expect(existsSync(join(state, "taint", "marker.json"))).toBe(true);
        expect(existsSync(join(home, "project", "taint-away"))).toBe(false);
      }
    }
  });
});

describe("files that run code later", () => {
  it("overwriting a program in a folder on the server's PATH is refused; with the checks off it runs", async () => {
    for (const off of [false, true]) {
      const { home, env, project } = box();
      const bin = join(project, "tools", "bin");
      mkdirSync(bin, { recursive: true });
      const tool = join(bin, "deploy");
      writeFileSync(tool, "#!/bin/sh\necho real\n");
      chmodSync(tool, 0o755);
      const marker = join(home, "PATH-RAN");
      const [a] = await session(
        { ...env, PATH: `${bin}:${process.env.PATH ?? ""}` },
        project,
        [{ name: "write_file", arguments: { path: tool, content: `#!/bin/sh\ntouch '${marker}'\n` } }],
        { off },
      );
      spawnSync("deploy", [], { env: { ...process.env, PATH: `${bin}:${process.env.PATH ?? ""}` } });
      if (off) expect(existsSync(marker), "control: the breach is real").toBe(true);
      else {
        expect(refused(a), a?.text).toBe(true);
        expect(existsSync(marker)).toBe(false);
      }
    }
  });

  it.runIf(spawnSync("python3", ["-c", "pass"]).status === 0)(
    "a .pth in the user's site-packages is refused; with the checks off the next python3 runs it",
    async () => {
      for (const off of [false, true]) {
        const { home, env } = box();
        const site = spawnSync("python3", ["-c", "import site; print(site.getusersitepackages())"], {
          env: { ...process.env, HOME: home },
          encoding: "utf8",
        }).stdout.trim();
        mkdirSync(site, { recursive: true });
        const marker = join(home, "PTH-RAN");
        const [a] = await session(
          env,
          home,
          [
            {
              name: "write_file",
              arguments: {
                path: join(site, "zz-evil.pth"),
                content: `import os; open(${JSON.stringify(marker)}, "w")\n`,
              },
            },
          ],
          { off },
        );
        spawnSync("python3", ["-c", "pass"], { env: { ...process.env, HOME: home } });
        if (off) expect(existsSync(marker), "control: the breach is real").toBe(true);
        else {
          expect(refused(a), a?.text).toBe(true);
          expect(existsSync(marker)).toBe(false);
        }
      }
    },
  );

  it("~/.config/nvim/init.lua, ~/.tmux.conf and a container root's etc/profile.d are refused", async () => {
    const { home, env, project } = box();
    mkdirSync(join(home, ".config", "nvim"), { recursive: true });
    mkdirSync(join(project, "rootfs", "etc", "profile.d"), { recursive: true });
    const targets = [
      join(home, ".config", "nvim", "init.lua"),
      join(home, ".tmux.conf"),
      join(project, "rootfs", "etc", "profile.d", "x.sh"),
    ];
    const answers = await session(
      env,
      home,
      targets.map((path) => ({ name: "write_file", arguments: { path, content: "x\n" } })),
    );
    expect(answers.every(refused), JSON.stringify(answers)).toBe(true);
    for (const t of targets) expect(existsSync(t), t).toBe(false);
  });
});

describe("secrets the default missed", () => {
  it("backups of .env, ~/.pgpass and shell history are not read; .env.example still is", async () => {
    const { home, env, project } = box();
    const SECRET = "sk-live-blind-files";
    const secrets = [
      join(project, ".env.bak"),
      join(project, ".env~"),
      join(home, ".pgpass"),
      join(home, ".bash_history"),
    ];
    for (const s of secrets) writeFileSync(s, `${SECRET}\n`);
    writeFileSync(join(project, ".env.example"), "API_KEY=\n");
    const answers = await session(env, home, [
      ...secrets.map((path) => ({ name: "read_text_file", arguments: { path } })),
      { name: "read_text_file", arguments: { path: join(project, ".env.example") } },
    ]);
    const example = answers.pop();
    expect(answers.every(refused), JSON.stringify(answers)).toBe(true);
    expect(JSON.stringify(answers)).not.toContain(SECRET);
    expect(example?.isError).toBe(false);
    expect(example?.text).toContain("API_KEY=");
  });
});

describe("documentation and answer tools are taint sources", () => {
  it("after get-library-docs or perplexity_ask, a command is refused at enforce; after a local tool it is relayed", async () => {
    for (const [tool, tainting] of [
      ["get-library-docs", true],
      ["perplexity_ask", true],
      ["read_wiki_contents", true],
      ["get_notes", false],
    ] as const) {
      const { env } = box();
      const record = env.RECORD_FILE as string;
      const c = new RawClient(["--level", "enforce", "--", process.execPath, RECORDING_SERVER], env);
      await c.initialize();
      await c.call(1, tool, { libraryID: "/vercel/next.js" });
      const answer = await c.call(2, "run_command", { command: "deploy-tool --all" });
      await c.close();
      const ran = received(record).some((m) => m.method === "tools/call" && m.id === 2);
      expect(ran, `${tool}: ${JSON.stringify(answer)}`).toBe(!tainting);
    }
  });
});
