// Help text, generated from the same declarations the parser reads: one layout for every
// command (usage, what it does, options with meaning and default, examples), 80 columns wide
// so that it reads the same in every terminal and in the golden files of the tests.
import type { Command } from "commander";
import { VERSION } from "../../version.js";
import type { CommandEntry } from "./commands.js";
import type { CommandDeclaration, Example } from "./declaration.js";
import { commandFor } from "./parse.js";

const WIDTH = 80;

function styled(cmd: Command): Command {
  return cmd.configureHelp({
    helpWidth: WIDTH,
    sortOptions: false,
    sortSubcommands: false,
    // The declaration's meaning already ends with "(default: …)"; commander would add its own.
    optionDescription: (option) => option.description,
    argumentDescription: (argument) => argument.description,
  });
}

function examples(list: readonly Example[]): string {
  if (list.length === 0) return "";
  return `\nExamples:\n${list.map((e) => `  # ${e.says}\n  $ ${e.command}`).join("\n\n")}\n`;
}

/** `effectgate <command> --help`. */
export function commandHelp(name: string, decl: CommandDeclaration): string {
  return styled(commandFor(name, decl)).helpInformation() + examples(decl.examples);
}

/** `effectgate --help`: the relay's own options, then the commands. */
export function rootHelp(relay: CommandDeclaration, commands: readonly CommandEntry[]): string {
  const cmd = styled(commandFor(undefined, relay))
    .usage("[options] -- CMD [ARGS...]\n       effectgate <command> [options]")
    .version(VERSION, "-V, --version", "print the version and exit")
    .helpCommand("help [command]", "show the options and examples of a command");
  for (const c of commands) cmd.command(c.name).description(c.summary);
  return `${cmd.helpInformation()}${examples(relay.examples)}\nRun "effectgate help <command>" for the options and examples of a command.\n`;
}
