import { describe, expect, it } from "vitest";
import { isOutputName, isPathName } from "../../../src/core/effects/arg-names.js";

// What an argument's name says, word by word (decision 0058): each word stated here, so that a
// word dropped from the code's lists is a failing test.

const OUTPUT = [
  "destination", "destinations", "dest", "dst", "target", "targets", "output", "outputs", "out",
  "outfile", "outdir", "outpath", "outputfile", "outputpath", "to", "save", "saveas", "savepath",
  "saveto", "writeto",
]; // prettier-ignore
const PATH = [
  "path", "paths", "pathname", "file", "files", "filename", "filenames", "filepath", "dir", "dirs",
  "directory", "directories", "folder", "folders", "location", "uri", "root", "cwd", "workdir",
]; // prettier-ignore

describe("argument names", () => {
  it("an output word makes a name an output, and a path", () => {
    for (const w of OUTPUT) {
      for (const name of [w, `log_${w}`, `my-${w}`, `x${w[0]?.toUpperCase()}${w.slice(1)}`]) {
        expect(isOutputName(name), name).toBe(true);
        expect(isPathName(name), name).toBe(true);
      }
    }
  });

  it("a path word makes a name a path, not an output", () => {
    for (const w of PATH) {
      expect(isPathName(`source_${w}`), w).toBe(true);
      expect(isOutputName(`source_${w}`), w).toBe(false);
    }
  });

  it("other names are neither", () => {
    for (const name of ["content", "text", "url", "message", "toolbox", "outline", "pathology", "query"]) {
      expect(isPathName(name), name).toBe(false);
      expect(isOutputName(name), name).toBe(false);
    }
  });
});
