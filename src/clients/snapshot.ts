// Reads every discovered config into baseline records (the I/O half of verify and watch).
import { dirname } from "node:path";
import type { MachineFacts } from "../platform/client-paths.js";
import { type FileRecord, fileRecord, serverRecord } from "./baseline.js";
import { discover, readConfig } from "./config-io.js";
import { withLinkedMains } from "./launcher.js";
import { parseConfig } from "./parse.js";
import { CLIENTS } from "./registry/index.js";
import { serversOf } from "./servers.js";

export function snapshot(
  facts: MachineFacts,
  projectDir: string,
  knownMains: readonly string[],
  isOff: (value: string) => boolean,
): FileRecord[] {
  const out: FileRecord[] = [];
  for (const { spec, file } of discover(facts, projectDir, CLIENTS)) {
    let text: string;
    try {
      text = readConfig(file.path).text;
    } catch (err) {
      out.push(fileRecord(file, [], (err as Error).message));
      continue;
    }
    const parsed = parseConfig(text, file.format);
    if (!parsed.ok) {
      out.push(fileRecord(file, [], `does not parse (${parsed.error})`));
      continue;
    }
    const decls = serversOf(spec, file, parsed.value);
    const mains = withLinkedMains(knownMains, decls);
    out.push(
      fileRecord(
        file,
        decls.map((d) => serverRecord(d, mains, isOff)),
      ),
    );
  }
  return out;
}

export interface WatchTargets {
  /** Config files any client might read. */
  files: string[];
  /** Folders whose changes matter: each file's folder, and every folder a client lists
   *  (Continue's mcpServers/, VS Code profiles, MSIX packages), where new files may appear. */
  dirs: string[];
}

export function watchTargets(facts: MachineFacts, projectDir: string): WatchTargets {
  const listed = new Set<string>();
  const recording: MachineFacts = {
    ...facts,
    listDirs: (d) => (listed.add(d), facts.listDirs(d)),
    listFiles: (d) => (listed.add(d), facts.listFiles(d)),
  };
  const files = [...new Set(CLIENTS.flatMap((c) => c.files(recording, projectDir).map((f) => f.path)))];
  return { files, dirs: [...new Set([...files.map((f) => dirname(f)), ...listed])] };
}
