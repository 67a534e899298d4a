// Reading the chain of ancestors for the shared-taint key (issue 17), on this machine and from
// the other systems' sources, and the key a real `sh -c` launcher leaves unchanged.
import { execFileSync } from "node:child_process";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { clientProcessKey, procEntry, PROCESSENTRY32W, psChain } from "../../src/platform/client-process.js";

const ROOT = join(import.meta.dirname, "..", "..");
const PRINT_KEY = `import(${JSON.stringify(join(ROOT, "build", "platform", "client-process.js"))}).then((m) => process.stdout.write(m.clientProcessKey()))`;

describe("the client process key", () => {
  it.runIf(process.platform === "linux")("is the same for a relay started directly and through sh -c", () => {
    const direct = execFileSync(process.execPath, ["-e", PRINT_KEY], { encoding: "utf8" });
    const q = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;
    const viaSh = execFileSync("sh", ["-c", `${q(process.execPath)} -e ${q(PRINT_KEY)}; exit $?`], {
      encoding: "utf8",
    });
    const viaTwo = execFileSync(
      "sh",
      ["-c", `bash -c ${q(`${q(process.execPath)} -e ${q(PRINT_KEY)}; exit $?`)}; exit $?`],
      {
        encoding: "utf8",
      },
    );
    // The test process is the client: its pid and start time.
    expect(direct).toMatch(new RegExp(`^${process.pid}-\\d+$`));
    expect(viaSh).toBe(direct);
    expect(viaTwo).toBe(direct);
    expect(clientProcessKey()).not.toBe(direct);
  });

  it("falls back to the parent's pid when nothing can be read", () => {
    expect(clientProcessKey(999_999_999, "linux")).toBe("999999999");
  });
});

describe("procEntry", () => {
  it("reads a command name with spaces and parentheses, the parent, the start time and argv", () => {
    const files: Record<string, string> = {
      "/proc/7/stat": "7 (a) b (c)) S 3 7 7 0 -1 4194560 1 0 0 0 0 0 0 0 20 0 1 0 12345 1 1",
      "/proc/7/cmdline": "sh\0-c\0effectgate -- x\0",
    };
    expect(procEntry(7, (p) => files[p] as string)).toEqual({
      pid: 7,
      ppid: 3,
      argv: ["sh", "-c", "effectgate -- x"],
      argvKnown: true,
      start: "12345",
    });
  });
});

describe("psChain", () => {
  it("reads pid, parent, start and command line, and walks up from the parent", () => {
    const table = [
      "    1     0 Mon Dec  1 22:00:00 2026 /sbin/launchd",
      "  500     1 Mon Dec  1 22:01:00 2026 /Applications/Cursor.app/Contents/MacOS/Cursor --type=x",
      "  600   500 Mon Dec  1 22:02:00 2026 sh -c effectgate -- node s.js",
      "  bad line",
    ].join("\n");
    expect(psChain(600, table)).toEqual([
      {
        pid: 600,
        argv: ["sh", "-c", "effectgate", "--", "node", "s.js"],
        argvKnown: true,
        start: "Mon Dec 1 22:02:00 2026",
      },
      {
        pid: 500,
        argv: ["/Applications/Cursor.app/Contents/MacOS/Cursor", "--type=x"],
        argvKnown: true,
        start: "Mon Dec 1 22:01:00 2026",
      },
    ]);
    expect(psChain(4242, table)).toEqual([]);
  });
});

describe("PROCESSENTRY32W", () => {
  // koffi is installed only on Windows (decision 0085), so the layout is laid out here as a C
  // compiler lays it out on 64-bit Windows: each member at a multiple of its size, the whole
  // padded to its widest member.
  const SIZES: Record<string, number> = { uint32_t: 4, int32_t: 4, uintptr_t: 8, char16_t: 2 };
  const fakeKoffi = { array: (type: string, length: number, hint: string) => ({ type, length, hint }) };
  function sizeOf(def: Record<string, unknown>): number {
    let offset = 0;
    let widest = 1;
    for (const member of Object.values(def)) {
      const { type, length } =
        typeof member === "string"
          ? { type: member, length: 1 }
          : (member as { type: string; length: number });
      const size = SIZES[type];
      if (size === undefined) throw new Error(`expected a known C type, got ${type}`);
      offset = Math.ceil(offset / size) * size + size * length;
      widest = Math.max(widest, size);
    }
    return Math.ceil(offset / widest) * widest;
  }

  it("has the size Windows expects of it (dwSize), with the name read as a string", () => {
    const def = PROCESSENTRY32W(fakeKoffi);
    expect(sizeOf(def)).toBe(568);
    expect(def["szExeFile"]).toEqual({ type: "char16_t", length: 260, hint: "String" });
    expect(Object.keys(def).indexOf("th32ParentProcessID")).toBe(6);
  });
});
