// Config locations beyond each client's main files: dev containers (read, never written),
// Continue JSON blocks, .agents/mcp.json, $OPENCODE_CONFIG, and system-wide Codex/Gemini files.
import { spawnSync } from "node:child_process";
import { chmodSync, chownSync, mkdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { describe, expect, it } from "vitest";
import { CLIENTS } from "../../src/clients/registry/index.js";
import { runPlans, selectClients } from "../../src/clients/session.js";
import { machineFacts } from "../../src/platform/client-paths.js";
import { cli, FIXTURES, freshMachine, REPO } from "./helpers.js";

const LAUNCHER = { words: ["/opt/node/bin/node", "/opt/effectgate/dist/main.js"] };

describe("more config locations (built CLI)", () => {
  it("reads a dev container's servers for verify but never rewrites the file", () => {
    const m = freshMachine();
    const rel = join("project", ".devcontainer", "devcontainer.json");
    const path = join(m.root, rel);
    expect(cli(m, ["verify", "--write", "--project", m.project]).status).toBe(0);
    const lock = readFileSync(join(m.egHome, "configs.lock"), "utf8");
    expect(lock).toContain('"path":' + JSON.stringify(path));
    expect(lock).toContain('"args":["@playwright/mcp@latest"]');
    const r = cli(m, ["install", "--client", "vscode", "--project", m.project]);
    expect(r.status, r.stdout).toBe(0);
    expect(r.stdout).toContain("skip    playwright: dev container servers run inside the container");
    expect(readFileSync(path)).toEqual(readFileSync(join(FIXTURES, rel)));
    // An added server there is drift like anywhere else.
    const text = readFileSync(path, "utf8").replace(
      '"servers": {',
      '"servers": {\n          "sneaky": { "command": "npx", "args": ["evil-mcp"] },',
    );
    writeFileSync(path, text);
    const v = cli(m, ["verify"]);
    expect(v.status).toBe(1);
    expect(v.stdout).toContain(`${path}\n  !! new server sneaky is NOT wrapped by effectgate: npx evil-mcp`);
  });

  it("wraps and restores the opencode file named by $OPENCODE_CONFIG", () => {
    const m = freshMachine(false);
    const path = join(m.root, "elsewhere", "oc.jsonc");
    mkdirSync(join(m.root, "elsewhere"));
    const original =
      '{\n  // explicit config\n  "mcp": { "t": { "type": "local", "command": ["uvx", "mcp-server-time"] } }\n}\n';
    writeFileSync(path, original);
    const env = { ...m.env, OPENCODE_CONFIG: path };
    const r = cli({ ...m, env }, ["install"]);
    expect(r.status, r.stdout).toBe(0);
    expect(r.stdout).toContain(`${path} (opencode, user)\n  wrap    t: uvx mcp-server-time`);
    const wrapped = readFileSync(path, "utf8");
    expect(wrapped).toContain('"--", "uvx", "mcp-server-time"]');
    expect(wrapped).toContain("// explicit config");
    expect(cli({ ...m, env }, ["uninstall"]).status).toBe(0);
    expect(readFileSync(path, "utf8")).toBe(original);
  });
});

describe("system-wide files", () => {
  const TOML = '# managed by IT\n[mcp_servers.corp]\ncommand = "corp-mcp"\nargs = ["--safe"]\n';
  const JSONC = '{\n  // fleet default\n  "mcpServers": { "lint": { "command": "lint-mcp" } }\n}\n';

  function machine() {
    const m = freshMachine(false);
    const root = join(m.root, "sysroot");
    mkdirSync(join(root, "etc", "codex"), { recursive: true });
    mkdirSync(join(root, "etc", "gemini-cli"), { recursive: true });
    writeFileSync(join(root, "etc", "codex", "config.toml"), TOML);
    writeFileSync(join(root, "etc", "gemini-cli", "settings.json"), JSONC);
    const facts = { ...machineFacts({ HOME: m.home }), platform: "linux" as const, systemRoot: root };
    return { m, root, facts };
  }

  function run(facts: ReturnType<typeof machine>["facts"], asked: string[], project: string) {
    const memosPath = join(project, "..", "eg", "install-memos.json");
    let out = "";
    const result = runPlans({
      facts,
      projectDir: project,
      clients: selectClients(asked),
      mode: { kind: "install", launcher: LAUNCHER, flags: {} },
      knownMains: [LAUNCHER.words[1] as string],
      dryRun: false,
      asked,
      memosPath,
      unwrapMemosPath: join(project, "..", "eg", "unwrapped.json"),
      out: (s) => (out += s),
    });
    return { out, result };
  }

  it("reports them but writes them only when their client is named with --client", () => {
    const { m, root, facts } = machine();
    const codexFile = join(root, "etc", "codex", "config.toml");
    const geminiFile = join(root, "etc", "gemini-cli", "settings.json");
    const all = run(facts, [], m.project);
    expect(all.result.written).toBe(0);
    expect(all.out).toContain(
      `${codexFile} (Codex, system)\n  skip    corp: would wrap, but this system-wide file changes only with --client codex`,
    );
    expect(all.out).toContain(
      `${geminiFile} (Gemini CLI, system)\n  skip    lint: would wrap, but this system-wide file changes only with --client gemini`,
    );
    expect(readFileSync(codexFile, "utf8")).toBe(TOML);
    expect(readFileSync(geminiFile, "utf8")).toBe(JSONC);

    const asked = run(facts, ["codex"], m.project);
    expect(asked.result.written).toBe(1);
    expect(readFileSync(codexFile, "utf8")).toBe(
      '# managed by IT\n[mcp_servers.corp]\ncommand = "/opt/node/bin/node"\nargs = ["/opt/effectgate/dist/main.js", "--name", "corp", "--", "corp-mcp", "--safe"]\n',
    );
    expect(readFileSync(geminiFile, "utf8")).toBe(JSONC);
  });

  it("does not write a system file the user cannot replace, even when asked", () => {
    const { m, root } = machine();
    const codexFile = join(root, "etc", "codex", "config.toml");
    // A normal user cannot replace a file in a read-only folder. Root can write anything, so as
    // root the same plan runs as the unprivileged user `nobody`.
    const asRoot = process.getuid?.() === 0;
    for (const dir of [
      m.root,
      root,
      join(root, "etc"),
      join(root, "etc", "codex"),
      join(root, "etc", "gemini-cli"),
    ])
      chmodSync(dir, 0o755);
    if (!asRoot) chmodSync(join(root, "etc", "codex"), 0o555);
    const script = `
      const { runPlans, selectClients } = await import(${JSON.stringify(pathToFileURL(join(REPO, "build", "clients", "session.js")).href)});
      const { machineFacts } = await import(${JSON.stringify(pathToFileURL(join(REPO, "build", "platform", "client-paths.js")).href)});
      let out = "";
      const r = runPlans({
        facts: { ...machineFacts({ HOME: ${JSON.stringify(m.home)} }), platform: "linux", systemRoot: ${JSON.stringify(root)} },
        projectDir: ${JSON.stringify(m.project)}, clients: selectClients(["codex"]), asked: ["codex"],
        mode: { kind: "install", launcher: ${JSON.stringify(LAUNCHER)}, flags: {} },
        knownMains: [], dryRun: false, memosPath: "/nonexistent/memos.json", unwrapMemosPath: "/nonexistent/unwrapped.json",
        out: (s) => (out += s),
      });
      process.stdout.write(out + "written=" + r.written + "\\n");`;
    const r = spawnSync(process.execPath, ["--input-type=module", "-e", script], {
      encoding: "utf8",
      ...(asRoot ? { uid: 65534, gid: 65534 } : {}),
    });
    expect(r.stderr).toBe("");
    expect(r.stdout).toContain(
      `${codexFile} (Codex, system)\n  skip    corp: would wrap, but this system-wide file is not writable by you (run as an administrator)`,
    );
    expect(r.stdout).toContain("written=0");
    expect(readFileSync(codexFile, "utf8")).toBe(TOML);
  });

  it("lists every system file per OS", () => {
    const f = { ...machineFacts({ HOME: "/h" }), systemRoot: "" };
    const files = (platform: "linux" | "darwin" | "win32", over = {}) =>
      CLIENTS.flatMap((c) => c.files({ ...f, platform, ...over }, "/p"))
        .filter((x) => x.scope === "system")
        .map((x) => x.path);
    expect(files("linux")).toEqual(["/etc/codex/config.toml", "/etc/gemini-cli/settings.json"]);
    expect(files("darwin")).toEqual([
      "/etc/codex/config.toml",
      "/Library/Application Support/GeminiCli/settings.json",
    ]);
    expect(files("win32", { sep: "\\", programData: "D:\\PD" })).toEqual([
      "D:\\PD\\gemini-cli\\settings.json",
    ]);
  });
});

describe("ownership on rewrite", () => {
  it("gives the rewritten file and its backup the original owner and group", () => {
    const m = freshMachine();
    const path = join(m.home, ".cursor", "mcp.json");
    // As root (sudo) the file can belong to someone else; as a user it is our own.
    const asRoot = process.getuid?.() === 0;
    const uid = asRoot ? 4321 : statSync(path).uid;
    const gid = asRoot ? 5432 : statSync(path).gid;
    if (asRoot) chownSync(path, uid, gid);
    const r = cli(m, ["install", "--client", "cursor"]);
    expect(r.status, r.stdout).toBe(0);
    expect(readFileSync(path, "utf8")).toContain("--local-timezone=Europe/Paris");
    expect(readFileSync(path, "utf8")).not.toBe(
      readFileSync(join(FIXTURES, "home", ".cursor", "mcp.json"), "utf8"),
    );
    expect([statSync(path).uid, statSync(path).gid]).toEqual([uid, gid]);
    const backup = /backup (\S+)\)/.exec(r.stdout)?.[1] ?? "";
    expect([statSync(backup).uid, statSync(backup).gid, statSync(backup).mode & 0o777]).toEqual([
      uid,
      gid,
      0o600,
    ]);
  });
});
