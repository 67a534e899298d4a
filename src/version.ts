import { createRequire } from "node:module";

const require = createRequire(import.meta.url);
const pkg = require("../package.json") as { version: string };

/** The package version, read from the package.json shipped next to dist/. */
export const VERSION: string = pkg.version;

/** What `effectgate version` and `effectgate -V` print. */
export function versionLine(): string {
  return `effectgate ${VERSION} node ${process.version} ${process.platform}/${process.arch}\n`;
}
