import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { FILESYSTEM_SERVER as FILESYSTEM, sandbox, sdkClient } from "./harness.js";

// The real filesystem server trims nothing, expands no `$VAR` and decodes no file: URI, and
// finds a missing name by its NFC form; effectgate judges every such reading (decision 0061).
// Judged by the disk, with the server allowed ~ and started from a project folder.

type Call = { name: string; arguments: Record<string, unknown> };

async function session(
  env: NodeJS.ProcessEnv,
  allowed: string,
  cwd: string,
  calls: Call[],
): Promise<Array<{ isError: boolean; text: string }>> {
  const client = await sdkClient(["--level", "enforce", "--", process.execPath, FILESYSTEM, allowed], {
    env,
    cwd,
    name: "path-readings-test",
  });
  const out: Array<{ isError: boolean; text: string }> = [];
  try {
    for (const c of calls) {
      const r = await client.callTool(c);
      out.push({ isError: r.isError === true, text: JSON.stringify(r.content) });
    }
  } finally {
    await client.close();
  }
  return out;
}

const SECRET = "SECRET-KEY-adversarial";

describe("readings a real filesystem server takes, black-box", () => {
  it("untrimmed, unexpanded and undecoded spellings of ~/.bashrc and ~/.ssh are refused", async () => {
    const { home, env } = sandbox();
    const project = join(home, "project");
    mkdirSync(project);
    mkdirSync(join(home, ".ssh"));
    writeFileSync(join(home, ".bashrc"), "# mine\n");
    writeFileSync(join(home, ".ssh", "authorized_keys"), "mine\n");
    writeFileSync(join(home, ".ssh", "id_rsa"), SECRET);
    const writes = [
      " /../.bashrc", // D1
      " /../.ssh/authorized_keys",
      "$HOME/../.ssh/authorized_keys", // D2
      "x$HOME/../.bashrc",
      "file:/../.ssh/config", // D3
      "file:/x?/../../.bashrc",
    ];
    const reads = [" /../.ssh/id_rsa", "$HOME/../.ssh/id_rsa", "file:/../.ssh/id_rsa"];
    const answers = await session(env, home, project, [
      ...writes.map((path) => ({ name: "write_file", arguments: { path, content: "PWNED\n" } })),
      ...reads.map((path) => ({ name: "read_text_file", arguments: { path } })),
      { name: "write_file", arguments: { path: " notes.txt", content: "fine\n" } },
    ]);
    const harmless = answers.pop();
    for (const [i, a] of answers.entries()) {
      expect(a.isError, [...writes, ...reads][i]).toBe(true);
      expect(a.text).toContain("effectgate refused");
      expect(a.text).not.toContain(SECRET);
    }
    expect(answers[0]?.text).toContain("(if the server does not trim whitespace)");
    expect(answers[2]?.text).toContain("(if the server does not expand variables)");
    expect(answers[4]?.text).toContain("(if the server does not decode file: URIs)");
    expect(readFileSync(join(home, ".bashrc"), "utf8")).toBe("# mine\n");
    expect(readFileSync(join(home, ".ssh", "authorized_keys"), "utf8")).toBe("mine\n");
    expect(existsSync(join(home, ".ssh", "config"))).toBe(false);
    // A harmless untrimmed name is relayed, and lands where the untrimmed reading said.
    expect(harmless?.isError).toBe(false);
    expect(readFileSync(join(home, " notes.txt"), "utf8")).toBe("fine\n");
  });

  it.runIf(process.platform === "linux")(
    "an NFD spelling of an NFC home is refused: the server would open the NFC folder",
    async () => {
      const { home: root, env } = sandbox();
      const home = join(root, "jos\u00e9");
      mkdirSync(join(home, ".ssh"), { recursive: true });
      writeFileSync(join(home, ".bashrc"), "# mine\n");
      // Named so that only ~/.ssh/** (through the NFC reading) can catch it, not **/id_rsa.
      writeFileSync(join(home, ".ssh", "deploy_key"), SECRET);
      const nfd = join(root, "jose\u0301");
      const answers = await session({ ...env, HOME: home }, root, root, [
        { name: "write_file", arguments: { path: join(nfd, ".bashrc"), content: "PWNED\n" } },
        { name: "read_text_file", arguments: { path: join(nfd, ".ssh", "deploy_key") } },
        { name: "create_directory", arguments: { path: join(nfd, ".config", "systemd", "user") } },
      ]);
      for (const a of answers) {
        expect(a.isError).toBe(true);
        expect(a.text).toContain("(if the server matches names by their NFC form)");
        expect(a.text).not.toContain(SECRET);
      }
      expect(readFileSync(join(home, ".bashrc"), "utf8")).toBe("# mine\n");
      expect(existsSync(join(home, ".config"))).toBe(false);
      expect(readdirSync(root).filter((n) => n.startsWith("jos"))).toEqual(["jos\u00e9"]);
    },
  );
});
