// `effectgate version`: the version, and the Node and platform it runs on (for bug reports).
import { EXIT } from "../core/errors.js";
import { versionLine } from "../version.js";
import type { CommandDeclaration } from "./cli/declaration.js";

export const command: CommandDeclaration = {
  description: "Print the version of effectgate, and the Node.js version and platform it runs on.",
  options: [],
  examples: [{ command: "effectgate version", says: "the line to paste into a bug report" }],
  run: async () => {
    process.stdout.write(versionLine());
    return EXIT.ok;
  },
};
