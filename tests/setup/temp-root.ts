// One temporary folder for the whole test run, removed at its end: every helper that makes a
// folder with os.tmpdir() (boxes, homes, logs, fixture records) and every process the tests
// start (they inherit TMPDIR) works inside it, so a run leaves nothing behind in /tmp, also when
// a test fails before its own cleanup.
import { chmodSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

export default function setup(): () => void {
  const previous = process.env.TMPDIR;
  const root = mkdtempSync(join(tmpdir(), "effectgate-tests-"));
  // Any user may pass through, as through /tmp: tests that run the CLI as nobody reach their own
  // folders (each made 0700 by mkdtemp unless the test opens it).
  chmodSync(root, 0o755);
  process.env.TMPDIR = root;
  return () => {
    if (previous === undefined) delete process.env.TMPDIR;
    else process.env.TMPDIR = previous;
    rmSync(root, { recursive: true, force: true, maxRetries: 3 });
  };
}
