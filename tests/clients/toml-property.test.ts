// Property: however a Codex file spells its servers (tables, dotted keys, inline tables; basic or
// literal strings; one-line or multi-line args with comments; LF or CRLF; empty or no args),
// install wraps every server to the intended document and uninstall gives back the exact bytes.
import fc from "fast-check";
import { parse } from "smol-toml";
import { describe, expect, it } from "vitest";
import { type Mode, planFile } from "../../src/clients/plan.js";
import { clientByName } from "../../src/clients/registry/index.js";
import type { ConfigFile } from "../../src/clients/types.js";

const INSTALL: Mode = { kind: "install", launcher: { words: ["/n/node", "/e/main.js"] }, flags: {} };
const UNINSTALL: Mode = { kind: "uninstall" };
const FILE: ConfigFile = { client: "codex", path: "c.toml", scope: "user", format: "toml" };

// Few distinct values, so that servers share commands and args and a scan must tell them apart.
const word = fc.oneof(fc.constantFrom("npx", "-y", "v", "a b"), fc.stringMatching(/^[a-z0-9./@ -]{1,12}$/));
const str = (v: string, literal: boolean) => (literal && !v.includes("'") ? `'${v}'` : JSON.stringify(v));

const server = fc.record({
  command: word,
  args: fc.option(fc.array(word, { maxLength: 3 }), { nil: undefined }),
  literal: fc.boolean(),
  multiline: fc.boolean(),
  comment: fc.boolean(),
  style: fc.constantFrom("table", "dotted", "inline"),
});

type Server = typeof server extends fc.Arbitrary<infer T> ? T : never;

function argsText(s: Server, eol: string): string {
  const items = (s.args ?? []).map((a) => str(a, s.literal));
  if (!s.multiline || s.style === "inline" || items.length === 0) return `[${items.join(", ")}]`;
  return `[${eol}${items.map((i) => `  ${i},${s.comment ? " # arg" : ""}`).join(eol)}${eol}]`;
}

function render(servers: Server[], eol: string): string {
  const lines = ['model = "m"', ""];
  const head: string[] = [];
  const tables: string[] = [];
  servers.forEach((s, i) => {
    const name = `s${i}`;
    const cmd = str(s.command, s.literal);
    const note = s.comment ? " # note" : "";
    if (s.style === "inline") {
      const args = s.args === undefined ? "" : `, args = ${argsText(s, eol)}`;
      head.push(`${name} = { command = ${cmd}${args}, env = { K = "v" } }${note}`);
    } else if (s.style === "dotted") {
      head.push(`${name}.command = ${cmd}${note}`);
      if (s.args !== undefined) head.push(`${name}.args = ${argsText(s, eol)}`);
    } else {
      tables.push("", `[mcp_servers.${name}]`, `command = ${cmd}${note}`);
      if (s.args !== undefined) tables.push(`args = ${argsText(s, eol)}`);
      tables.push("startup_timeout_sec = 20");
    }
  });
  if (head.length > 0) lines.push("[mcp_servers]", ...head);
  return [...lines, ...tables, ""].join(eol);
}

describe("Codex TOML spellings (property)", () => {
  const spec = clientByName("codex");
  if (!spec) throw new Error("no codex");
  it("install wraps every server as intended; uninstall restores the bytes", () => {
    fc.assert(
      fc.property(fc.array(server, { minLength: 1, maxLength: 4 }), fc.boolean(), (servers, crlf) => {
        const text = render(servers, crlf ? "\r\n" : "\n");
        const installed = planFile(spec, FILE, text, INSTALL, ["/e/main.js"]);
        expect(installed.error).toBeUndefined();
        expect(installed.actions.map((a) => a.action)).toEqual(servers.map(() => "wrap"));
        const doc = parse(installed.newText ?? "") as {
          mcp_servers: Record<string, Record<string, unknown>>;
        };
        servers.forEach((s, i) => {
          expect(doc.mcp_servers[`s${i}`]?.command).toBe("/n/node");
          expect(doc.mcp_servers[`s${i}`]?.args).toEqual([
            "/e/main.js",
            "--name",
            `s${i}`,
            "--",
            s.command,
            ...(s.args ?? []),
          ]);
        });
        expect(
          planFile(spec, FILE, installed.newText ?? "", INSTALL, ["/e/main.js"]).newText,
        ).toBeUndefined();
        const back = planFile(
          spec,
          FILE,
          installed.newText ?? "",
          UNINSTALL,
          ["/e/main.js"],
          installed.memos,
        );
        expect(back.newText).toBe(text);
      }),
      { numRuns: 150 },
    );
  });
});
