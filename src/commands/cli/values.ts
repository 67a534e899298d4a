// Options several commands share, declared once so that they mean, default and fail the same.
import { statSync } from "node:fs";
import { resolve } from "node:path";
import { UsageError } from "../../core/errors.js";
import { parseLevel } from "../../core/gate/levels.js";
import type { OptionDeclaration } from "./declaration.js";

export function levelOption(defaultText: string): OptionDeclaration {
  return {
    flags: "--level <level>",
    meaning:
      "observe (record only), enforce (refuse what the policy denies) or strict (also ask about what it would confirm)",
    default: defaultText,
    parse: (text) => {
      const level = parseLevel(text);
      if (!level) throw new UsageError(`expected observe, enforce or strict, got ${JSON.stringify(text)}`);
      return level;
    },
  };
}

/** `--dialog auto|off`: whether strict may ask in a desktop dialog (decision 0126). */
export const dialogOption: OptionDeclaration = {
  flags: "--dialog <when>",
  meaning: "at strict, ask in a desktop dialog when the client cannot ask you: auto or off",
  default: "the policy's ask.dialog, else off",
  parse: (text) => {
    if (text !== "auto" && text !== "off")
      throw new UsageError(`expected auto or off, got ${JSON.stringify(text)}`);
    return text;
  },
};

export function policyOption(meaning: string, defaultText = "the shipped one"): OptionDeclaration {
  return { flags: "--policy <policy>", meaning, default: defaultText };
}

/** `--project DIR` made absolute. A folder that does not exist is a usage error: every project
 *  config would silently be "not found" in it. */
export const projectOption: OptionDeclaration = {
  flags: "--project <dir>",
  meaning: "the project folder whose configs (.mcp.json, .cursor/, .vscode/ …) are read",
  default: "the current folder",
  parse: (text) => {
    const dir = resolve(text);
    let isDir = false;
    try {
      isDir = statSync(dir).isDirectory();
    } catch {
      // missing or unreadable: said below
    }
    if (!isDir) throw new UsageError(`expected an existing folder, got ${JSON.stringify(text)}`);
    return dir;
  },
};

export const dryRunOption: OptionDeclaration = {
  flags: "--dry-run",
  meaning: "print what would change and write nothing",
  default: "off",
};

export const baselineOption: OptionDeclaration = {
  flags: "--baseline <file>",
  meaning: "the baseline of client configs to compare with",
  default: "$EFFECTGATE_HOME/configs.lock",
};

/** `--no-color`: colour is for a terminal that wants it (https://no-color.org: NO_COLOR set to
 *  anything but the empty string turns it off). The command reads `color` (true unless given). */
export const colourOption: OptionDeclaration = {
  flags: "--no-color",
  meaning: "no colour; colour is used only on a terminal, and never when NO_COLOR is set",
  default: "colour on a terminal",
  value: true,
};

export function useColour(
  asked: boolean,
  stream: { isTTY?: boolean } = process.stdout,
  env: NodeJS.ProcessEnv = process.env,
): boolean {
  const noColour = env["NO_COLOR"];
  return asked && stream.isTTY === true && (noColour === undefined || noColour === "");
}

export function htmlOption(meaning: string): OptionDeclaration {
  return { flags: "--html <file>", meaning, default: "off (text on stdout)" };
}
