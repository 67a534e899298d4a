// `effectgate replay [LOG|DIR] [--json]`: a readable, deterministic transcript of session logs.
import { relative } from "node:path";
import { UsageError } from "../core/errors.js";
import { terminalSafeJson } from "../core/replay/escape.js";
import { formatFile, jsonRecords } from "../core/replay/format.js";
import { buildTranscript } from "../core/replay/transcript.js";
import { defaultSessionsDir, listLogs, readLogFile } from "../log/reader.js";

const HELP = `usage: effectgate replay [LOG|DIR] [--json]

Print a transcript of session logs: one line per message with its time since the session
started, refusals, questions, taint, pin events and server stderr marked with "!!", and a
summary per session. DIR (default $EFFECTGATE_HOME/sessions, else ~/.effectgate/sessions)
is read oldest first. Text that came from a server or a model is shown with control and
bidi characters escaped (\\x1b, \\u202e).

  --json   one JSON record per line (file, session, item, summary) instead of text
`;

export async function run(args: string[]): Promise<number> {
  let json = false;
  let target: string | undefined;
  for (const a of args) {
    if (a === "--help" || a === "-h") {
      process.stdout.write(HELP);
      return 0;
    }
    if (a === "--json") json = true;
    else if (a.startsWith("-"))
      throw new UsageError(`replay: unknown option "${a}"; expected --json or a log file or folder`);
    else if (target !== undefined)
      throw new UsageError(`replay: expected one log file or folder, got a second one "${a}"`);
    else target = a;
  }
  const path = target ?? defaultSessionsDir();
  const files = listLogs(path);
  if (files === undefined) {
    if (target !== undefined)
      throw new UsageError(`replay: expected a log file or folder, got "${target}", which does not exist`);
    process.stdout.write(`no sessions recorded at ${path} yet\n`);
    return 0;
  }
  if (files.length === 0) {
    process.stdout.write(`no session logs (*.jsonl) in ${path}\n`);
    return 0;
  }
  for (const file of files) {
    const shown = target === undefined || files.length > 1 ? relative(path, file) || file : file;
    const sessions = buildTranscript(readLogFile(file));
    if (json) {
      for (const rec of jsonRecords(shown, sessions)) process.stdout.write(`${terminalSafeJson(rec)}\n`);
    } else {
      process.stdout.write(`${formatFile(shown, sessions).join("\n")}\n`);
    }
  }
  return 0;
}
