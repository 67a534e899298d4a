import { mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { ConfigError } from "../../src/core/errors.js";
import { buildEntry } from "../../src/core/pins/entry.js";
import { identityFor } from "../../src/core/pins/identity.js";
import { serializeLock, type LockFile } from "../../src/core/pins/lock.js";
import { loadLock, writeLock } from "../../src/config/lock-file.js";
import { sandbox } from "../helpers/pins.js";

const tools = [
  {
    name: "read_file",
    description: "Read a file.",
    inputSchema: { type: "object", properties: { path: { type: "string" } }, required: ["path"] },
  },
  {
    name: "write_file",
    description: "Write a file.",
    inputSchema: { type: "object", properties: { path: { type: "string" }, content: { type: "string" } } },
    annotations: { destructiveHint: true },
  },
];

function sampleLock(): LockFile {
  const built = buildEntry({
    argv: ["node", "fs.mjs", "/data"],
    envNames: ["TOKEN"],
    instructions: "Be careful.",
    tools,
  });
  if (!built.ok) throw new Error(built.problems.join("; "));
  return { version: 1, servers: { fs: built.entry } };
}

function problemOf(fn: () => unknown): string {
  try {
    fn();
  } catch (err) {
    expect(err).toBeInstanceOf(ConfigError);
    return (err as Error).message;
  }
  throw new Error("expected a ConfigError");
}

describe("lock file", () => {
  it("round-trips: written, loaded, identical; stable order", () => {
    const box = sandbox();
    const file = join(box.dir, "effectgate.lock");
    const lock = sampleLock();
    lock.servers["another"] = lock.servers["fs"]!;
    writeLock(file, lock);
    const text = readFileSync(file, "utf8");
    expect(text.endsWith("}\n")).toBe(true);
    expect(text).toContain('\n  "servers": {\n    "another": {');
    const loaded = loadLock(file, { mustExist: true });
    expect(serializeLock(loaded.lock)).toBe(text);
    expect(loaded.edited).toEqual([]);
  });

  it("rejects a hand-edited description, naming the server and tool and the line", () => {
    const box = sandbox();
    const file = join(box.dir, "effectgate.lock");
    writeLock(file, sampleLock());
    const text = readFileSync(file, "utf8");
    writeFileSync(file, text.replace('"Read a file."', '"Read any file."'));
    const msg = problemOf(() => loadLock(file, { mustExist: true }));
    const line =
      text
        .split("\n")
        .findIndex(
          (l) =>
            l.includes('"hash"') &&
            text.split("\n").indexOf(l) > text.split("\n").findIndex((x) => x.includes('"read_file"')),
        ) + 1;
    expect(msg).toMatch(
      new RegExp(
        `^${file.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}:${line}: servers\\["fs"\\]\\.tools\\["read_file"\\]: hash: expected [0-9a-f]{64} \\(recomputed\\), got [0-9a-f]{64}; re-run effectgate approve$`,
      ),
    );
    // approve may still read it, to show and replace the edited entry.
    expect(loadLock(file, { mustExist: true, allowEdited: true }).edited.map((p) => p.at)).toEqual([
      ["servers", "fs", "tools", "read_file"],
    ]);
  });

  it("rejects edited instructions", () => {
    const box = sandbox();
    const file = join(box.dir, "effectgate.lock");
    writeLock(file, sampleLock());
    writeFileSync(file, readFileSync(file, "utf8").replace('"Be careful."', '"Be bold."'));
    expect(problemOf(() => loadLock(file, { mustExist: true }))).toContain(
      'servers["fs"]: instructionsHash: expected',
    );
  });

  it("rejects unknown keys, wrong types and duplicate keys with file:line", () => {
    const box = sandbox();
    const file = join(box.dir, "effectgate.lock");
    writeLock(file, sampleLock());
    const good = readFileSync(file, "utf8");
    writeFileSync(file, good.replace('"env": [', '"envv": [], "env": ['));
    expect(problemOf(() => loadLock(file, { mustExist: true }))).toMatch(
      /:\d+: servers\["fs"\]\.envv: expected only known keys, got unknown key "envv"/,
    );
    writeFileSync(file, good.replace('"version": 1', '"version": 2'));
    expect(problemOf(() => loadLock(file, { mustExist: true }))).toMatch(
      /:2: version: expected .*1.*, got number 2/,
    );
    writeFileSync(file, good.replace('"command": "node",', '"command": "node", "command": "evil",'));
    expect(problemOf(() => loadLock(file, { mustExist: true }))).toMatch(
      /:\d+: servers\["fs"\]\.command: expected each key once, got a duplicate key/,
    );
    writeFileSync(file, "{ not json");
    expect(problemOf(() => loadLock(file, { mustExist: true }))).toBe(
      `${file}:1: (file): expected JSON, got not valid JSON (Expected property name or '}', at line 1 column 3)`,
    );
  });

  it("names the line and column where a lock stops being JSON", () => {
    const box = sandbox();
    const file = join(box.dir, "effectgate.lock");
    writeLock(file, sampleLock());
    const good = readFileSync(file, "utf8");
    // A comma lost after "command": the parser stops at the next key, on the line below.
    const broken = good.replace('"command": "node",', '"command": "node"');
    writeFileSync(file, broken);
    const line = broken.split("\n").findIndex((l) => l.includes('"command"')) + 2;
    expect(problemOf(() => loadLock(file, { mustExist: true }))).toBe(
      `${file}:${line}: (file): expected JSON, got not valid JSON (Expected ',' or '}' after property value, at line ${line} column 7)`,
    );
    // Cut short: the end of the text is where it stopped.
    writeFileSync(file, '{\n  "version": ');
    expect(problemOf(() => loadLock(file, { mustExist: true }))).toBe(
      `${file}:2: (file): expected JSON, got not valid JSON (Unexpected end of JSON input, at line 2 column 14)`,
    );
    // A message that quotes the text instead of giving a position: still one line, with a place.
    writeFileSync(file, '{\n  "version": nope\n}');
    expect(problemOf(() => loadLock(file, { mustExist: true }))).toBe(
      `${file}:2: (file): expected JSON, got not valid JSON (Unexpected token 'o', at line 2 column 14)`,
    );
  });

  it("a lock that cannot be written is a ConfigError naming the file, and leaves no temp file", () => {
    const box = sandbox();
    expect(problemOf(() => writeLock(join(box.dir, "gone", "l.lock"), sampleLock()))).toBe(
      `${join(box.dir, "gone", "l.lock")}: (folder): expected an existing folder ${join(box.dir, "gone")} to write the lock in, got no such folder`,
    );
    // A folder where the lock should be: the rename fails.
    const file = join(box.dir, "taken.lock");
    mkdirSync(file);
    expect(problemOf(() => writeLock(file, sampleLock()))).toMatch(
      new RegExp(`^${file}: \\(file\\): expected a lock file effectgate can write, got E[A-Z]+: `),
    );
    expect(readdirSync(box.dir).filter((n) => n.endsWith(".tmp"))).toEqual([]);
  });

  it("a missing lock is an error for the relay and empty for approve", () => {
    const box = sandbox();
    const file = join(box.dir, "none.lock");
    expect(problemOf(() => loadLock(file, { mustExist: true }))).toContain("no such file");
    expect(loadLock(file, { mustExist: false }).lock).toEqual({ version: 1, servers: {} });
  });

  it("identity is the name, else the argv with unusual words quoted", () => {
    expect(identityFor("fs", ["npx", "x"])).toBe("fs");
    expect(
      identityFor(undefined, ["npx", "-y", "@modelcontextprotocol/server-filesystem", "/my dir", ""]),
    ).toBe('npx -y @modelcontextprotocol/server-filesystem "/my dir" ""');
  });
});
