// Command-line words → a command's options, with commander (a well-kept parser: `--x=v`, `-h`,
// variadic values, the same rules for every command) and one usage-error style on top of it:
// `<what was wrong>; expected <what>`, thrown as UsageError (exit 2).
import { Command, CommanderError, Option } from "commander";
import { UsageError } from "../../core/errors.js";
import { nearKey } from "../../core/policy/near-key.js";
import type { CommandDeclaration, Parsed } from "./declaration.js";

/** "effectgate" for the relay, "effectgate check" for a subcommand. */
export const programName = (command: string | undefined): string =>
  command === undefined ? "effectgate" : `effectgate ${command}`;

/**
 * The commander Command of a declaration. Built afresh for each parse: commander keeps the
 * values it read on the Command itself.
 */
export function commandFor(command: string | undefined, decl: CommandDeclaration): Command {
  const cmd = new Command(programName(command))
    .description(decl.description)
    .helpOption("-h, --help", "show this help and exit")
    .exitOverride()
    .configureOutput({ writeOut: () => undefined, writeErr: () => undefined, outputError: () => undefined })
    .showSuggestionAfterError(false)
    .allowExcessArguments(false);
  const flags = optionWords(decl);
  const given = new Set<string>();
  for (const o of decl.options) {
    const option = new Option(o.flags, `${o.meaning} (default: ${o.default})`);
    const name = option.attributeName();
    const collects = o.repeatable === true || option.variadic;
    if (o.value !== undefined) option.default(o.value);
    else if (option.isBoolean()) option.default(false);
    else if (collects) option.default([]);
    if (!option.isBoolean()) {
      option.argParser((text: string, previous: unknown) => {
        const value = checkValue(option.long ?? o.flags, text, flags, o.parse);
        if (!collects) return value;
        const list = given.has(name) && Array.isArray(previous) ? previous : [];
        given.add(name);
        return [...list, value];
      });
    }
    cmd.addOption(option);
  }
  for (const a of decl.operands ?? []) cmd.argument(a.name, `${a.meaning} (default: ${a.default})`);
  if (decl.serverCommand) cmd.usage("[options] -- CMD [ARGS...]");
  return cmd;
}

/** Every spelling of an option of this command, for "got the option --json" and suggestions. */
function optionWords(decl: CommandDeclaration): string[] {
  const words = decl.options.flatMap((o) => {
    const option = new Option(o.flags);
    return [option.long, option.short].filter((w): w is string => w !== undefined);
  });
  return [...words, "-h", "--help"];
}

/** The rules every option value follows, then the option's own check. */
function checkValue(
  flag: string,
  text: string,
  options: readonly string[],
  parse: ((text: string) => unknown) | undefined,
): unknown {
  if (text === "" || text === "--")
    throw new UsageError(`${flag}: expected a value, got ${text === "" ? "an empty one" : '"--"'}`);
  // `--benign --json` is a forgotten value far more often than a file named --json.
  if (options.includes(text.split("=")[0] as string))
    throw new UsageError(`${flag}: expected a value, got the option ${JSON.stringify(text)}`);
  if (parse === undefined) return text;
  try {
    return parse(text);
  } catch (err) {
    // An option's own check says "expected X, got Y"; the flag is named here, once.
    if (err instanceof UsageError) throw new UsageError(`${flag}: ${err.message}`);
    throw err;
  }
}

/**
 * Parses `args` (the words after the command's name). Returns "help" when -h/--help was asked
 * for; throws UsageError naming the command otherwise.
 */
export function parseCommand(
  command: string | undefined,
  decl: CommandDeclaration,
  args: readonly string[],
): Parsed | "help" {
  try {
    return parseOrThrow(command, decl, args);
  } catch (err) {
    if (err instanceof UsageError) throw new UsageError(err.message, command);
    throw err;
  }
}

function parseOrThrow(command: string | undefined, decl: CommandDeclaration, args: readonly string[]) {
  // The words after the first `--` are a server's command line: commander never sees them, so
  // none of them can be read as an option of ours.
  const dash = decl.serverCommand ? args.indexOf("--") : -1;
  const ours = dash < 0 ? [...args] : args.slice(0, dash);
  const cmd = commandFor(command, decl);
  try {
    cmd.parse(ours, { from: "user" });
  } catch (err) {
    if (!(err instanceof CommanderError)) throw err;
    if (err.code === "commander.helpDisplayed" || err.code === "commander.help") return "help";
    throw new UsageError(commanderProblem(err, decl, cmd));
  }
  const server = dash < 0 ? [] : args.slice(dash + 1);
  // A command that takes a server may take it another way (the relay's --url): then no `--`.
  const instead = decl.serverCommand?.unlessOption;
  const other = instead === undefined ? undefined : cmd.opts()[instead];
  if (decl.serverCommand && other !== undefined) {
    if (dash >= 0)
      throw new UsageError(
        `expected either --${instead} or -- CMD [ARGS...], got both (--${instead} ${String(other)} and -- ${server.join(" ")})`,
      );
  } else if (decl.serverCommand) {
    if (dash < 0)
      throw new UsageError(`expected -- followed by the server command, e.g. ${decl.serverCommand.example}`);
    if (server.length === 0 || server[0] === "")
      throw new UsageError("expected a server command after --, got nothing");
  }
  const operands = cmd.processedArgs.filter((a): a is string => typeof a === "string");
  return { words: [...args], options: cmd.opts(), operands, server };
}

/** Commander's error, said the way every effectgate usage error is said. */
function commanderProblem(err: CommanderError, decl: CommandDeclaration, cmd: Command): string {
  const quoted = /'([^']*)'/.exec(err.message)?.[1] ?? "";
  const before = decl.serverCommand ? " before -- CMD [ARGS...]" : "";
  switch (err.code) {
    case "commander.unknownOption": {
      const word = quoted.split("=")[0] as string;
      const known = optionWords(decl).filter((w) => w.startsWith("--"));
      const near = nearKey(word, known);
      return `unknown option ${JSON.stringify(word)}; expected one of ${known.join(", ")}${before}${near === undefined ? "" : ` (did you mean ${near}?)`}`;
    }
    case "commander.missingArgument":
      return `expected ${(decl.operands ?? []).find((o) => o.name.startsWith("<"))?.name ?? "an argument"}, got nothing`;
    case "commander.optionMissingArgument":
      return `${quoted.split(" ")[0] ?? quoted}: expected a value, got nothing`;
    case "commander.excessArguments": {
      const extra = cmd.args[(decl.operands ?? []).length] ?? "";
      if (decl.serverCommand)
        return `unexpected ${JSON.stringify(extra)}; expected options${before} (the server command goes after --)`;
      const operands = decl.operands ?? [];
      return operands.length === 0
        ? `unexpected argument ${JSON.stringify(extra)}; expected options only (see --help)`
        : `unexpected argument ${JSON.stringify(extra)}; expected at most ${operands.length === 1 ? "one" : operands.length}: ${operands.map((o) => o.name).join(" ")}`;
    }
    default:
      return err.message.replace(/^error: /, "");
  }
}
