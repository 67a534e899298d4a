// The project's grants as one relay holds them (decision 0134): read at start, looked up by the
// policy gate, added to when the user says "always in this project". Reading the file loads a
// YAML parser and a schema, so that happens only when the file is there.
import { lstatSync } from "node:fs";
import { join } from "node:path";
import type { NewProjectGrant } from "../../core/gate/project-grants.js";

/** Where a grant that let a call through is written: the decision record names it. */
export interface GrantPlace {
  scope: "project";
  file: string;
  line: number;
}

/** The file's place in a project. */
export function grantFileOf(root: string): string {
  return join(root, ".effectgate", "allow.yaml");
}

export class ProjectGrantBook {
  /** `.effectgate/allow.yaml` below the root. */
  readonly file: string;

  constructor(
    /** The folder the relay runs in: relative paths in calls resolve against it too. */
    readonly root: string,
    private readonly lines = new Map<string, number>(),
  ) {
    this.file = grantFileOf(root);
  }

  /** The grant for this exact effect key, if the project has one. */
  find(key: string): GrantPlace | undefined {
    const line = this.lines.get(key);
    return line === undefined ? undefined : { scope: "project", file: this.file, line };
  }

  /** Writes a new entry at the end of the file and keeps it for this relay too. */
  async add(entry: Omit<NewProjectGrant, "root">): Promise<GrantPlace> {
    const { appendProjectGrant } = await import("./project-grants-file.js");
    const line = appendProjectGrant(this.file, { ...entry, root: this.root });
    if (!this.lines.has(entry.key)) this.lines.set(entry.key, line);
    return { scope: "project", file: this.file, line };
  }
}

/** Whether the grant file is there (a link or a folder counts: it is refused then). */
function fileThere(file: string): boolean {
  try {
    lstatSync(file);
    return true;
  } catch {
    return false;
  }
}

/**
 * The grants of the project at `root`, and a notice for each entry of another root (ignored).
 * Throws ConfigError for a file that cannot be read or does not validate (exit 78).
 */
export async function openProjectGrants(
  root: string,
): Promise<{ book: ProjectGrantBook; notices: string[] }> {
  const book = new ProjectGrantBook(root);
  // A home folder started in holds EFFECTGATE_HOME's `.effectgate`: only the file loads the reader.
  if (!fileThere(book.file)) return { book, notices: [] };
  const { readProjectGrantFile } = await import("./project-grants-file.js");
  const read = readProjectGrantFile(book.file, root);
  const lines = new Map<string, number>();
  for (const g of read.grants) if (!lines.has(g.key)) lines.set(g.key, g.line);
  const notices = read.otherRoot.map(
    (g) =>
      `${book.file}:${g.line}: a grant for another project root (${JSON.stringify(g.root)}), not ${JSON.stringify(root)}; ignored`,
  );
  return { book: new ProjectGrantBook(root, lines), notices };
}
