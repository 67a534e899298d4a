import { nameWords } from "./tool-table.js";

// What an argument's NAME says about its string, for tools the table does not describe (and
// arguments it does not list). See docs/decisions/0058-line-breaks-outputs-and-remote-paths.md.

/**
 * Words of names that say "where the result goes": such a path is written, whatever the tool's
 * name says (`download_file {destination}`, `export_report {outputPath}`, `convert {to}`).
 */
const OUTPUT_WORDS = new Set([
  "destination",
  "destinations",
  "dest",
  "dst",
  "target",
  "targets",
  "output",
  "outputs",
  "out",
  "outfile",
  "outdir",
  "outpath",
  "outputfile",
  "outputpath",
  "to",
  "save",
  "saveas",
  "savepath",
  "saveto",
  "writeto",
]);

/** Words of names that say "this is a path", beyond the output words. */
const PATH_WORDS = new Set([
  "path",
  "paths",
  "pathname",
  "file",
  "files",
  "filename",
  "filenames",
  "filepath",
  "dir",
  "dirs",
  "directory",
  "directories",
  "folder",
  "folders",
  "location",
  "uri",
  "root",
  "cwd",
  "workdir",
]);

export function isOutputName(name: string): boolean {
  return nameWords(name).some((w) => OUTPUT_WORDS.has(w));
}

export function isPathName(name: string): boolean {
  return nameWords(name).some((w) => PATH_WORDS.has(w) || OUTPUT_WORDS.has(w));
}
