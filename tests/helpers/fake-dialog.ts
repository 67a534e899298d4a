// Fake desktop dialog tools on a temporary PATH (tests/fixtures/dialog/fake-dialog.mjs): each is
// a small sh wrapper named like the real tool, so effectgate finds it exactly as it would find
// zenity or osascript, and what each was started with is read back from the record.
import { chmodSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

const FAKE = join(import.meta.dirname, "..", "fixtures", "dialog", "fake-dialog.mjs");

export interface Shown {
  tool: string;
  argv: string[];
  text: string | null;
  title: string | null;
  pid: number;
}

export interface FakeDialogs {
  /** A folder holding only the fakes: use it as the whole PATH. */
  bin: string;
  record: string;
  /** The environment that points PATH at the fakes and says how they answer. */
  env(answer: "yes" | "no" | "hang" | "odd" | "crash"): Record<string, string>;
  shown(): Shown[];
  remove(): void;
}

/** `names` maps each executable's file name to the tool it plays (`powershell.exe` → `powershell`). */
export function fakeDialogs(names: Record<string, string>): FakeDialogs {
  const bin = mkdtempSync(join(tmpdir(), "effectgate-dialog-"));
  const record = join(bin, "shown.jsonl");
  for (const [file, tool] of Object.entries(names)) {
    const path = join(bin, file);
    writeFileSync(
      path,
      `#!/bin/sh\nFAKE_DIALOG_TOOL=${tool} exec ${JSON.stringify(process.execPath)} ${JSON.stringify(FAKE)} "$@"\n`,
    );
    chmodSync(path, 0o755);
  }
  return {
    bin,
    record,
    env: (answer) => ({ PATH: bin, FAKE_DIALOG_RECORD: record, FAKE_DIALOG_ANSWER: answer }),
    shown: () =>
      existsSync(record)
        ? readFileSync(record, "utf8")
            .split("\n")
            .filter(Boolean)
            .map((l) => JSON.parse(l) as Shown)
        : [],
    remove: () => rmSync(bin, { recursive: true, force: true }),
  };
}
