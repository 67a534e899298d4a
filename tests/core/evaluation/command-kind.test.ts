import { describe, expect, it } from "vitest";
import { commandKind, otherProgram } from "../../../src/core/evaluation/command-kind.js";
import { defaultJudge } from "../../helpers/commands.js";

// The kind eval counts a command under comes from the catalogue's class of each simple command.
const effectsOf = (command: string) =>
  defaultJudge().judge("tools/call", { name: "start_process", arguments: { command } }).effects;

const KINDS: [string, string | undefined][] = [
  ["ls -la src", "reads and files"],
  ["mkdir -p out && cp a.txt out/", "reads and files"],
  ["grep -rn TODO src | head", "reads and files"],
  ["git status", "git"],
  ["git push origin main", "git"],
  ["cd app && git log --oneline -3", "git"],
  ["npm test", "builds and tests"],
  ["cargo build --release", "builds and tests"],
  ["npm ci", "package installs"],
  ["cd web && pnpm install && pnpm build", "package installs"],
  ["python3 -m pip install -r requirements.txt", "package installs"],
  ["uv sync", "package installs"],
  ["psql -d app -f schema.sql", "other"],
  ["npm test && supabase db push", "other"],
];

describe("the kind of command eval counts", () => {
  for (const [command, kind] of KINDS)
    it(`${command} is ${kind}`, () => expect(commandKind(effectsOf(command))).toBe(kind));

  it("counts no kind for a call that runs no command", () => {
    const d = defaultJudge().judge("tools/call", { name: "read_file", arguments: { path: "README.md" } });
    expect(commandKind(d.effects)).toBeUndefined();
  });

  it("names the program that made a command other", () => {
    expect(otherProgram(effectsOf("npm test && supabase db push"))).toBe("supabase");
  });
});
