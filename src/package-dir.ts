// Where the files shipped beside the code are found. This module sits one folder below the
// package (src/, build/ as tsc emits it, or dist/ as the bundle lays it out, where every chunk
// is at the top of dist/), so one URL relative to it serves all three layouts. A path relative
// to a deeper module would point elsewhere once that module is bundled into a chunk.
import { join } from "node:path";
import { fileURLToPath } from "node:url";

/** The package's own folder: the one with package.json, policy/ and corpus/. */
const PACKAGE_DIR = fileURLToPath(new URL("..", import.meta.url));

/** The folder of the running code (src/, build/ or dist/): build outputs are kept beside it. */
export const CODE_DIR = fileURLToPath(new URL(".", import.meta.url));

/** `parts` under the package's folder. */
export function packagePath(...parts: string[]): string {
  return join(PACKAGE_DIR, ...parts);
}
