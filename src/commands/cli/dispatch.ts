// argv → the command that runs it: a subcommand by its first word, help, or the relay (options,
// then `--` and the server command). Usage errors are thrown; main.ts turns them into exit 2.
import { EXIT, UsageError } from "../../core/errors.js";
import { nearKey } from "../../core/policy/near-key.js";
import { COMMANDS, commandNamed, type CommandEntry } from "./commands.js";
import type { CommandDeclaration } from "./declaration.js";
import { commandHelp, rootHelp } from "./help.js";
import { parseCommand } from "./parse.js";

const relayCommand = async (): Promise<CommandDeclaration> => (await import("../relay.js")).command;

/** Parses, prints help when asked, else runs; usage errors from the run name the command too. */
async function runDeclared(name: string | undefined, decl: CommandDeclaration, args: string[]) {
  const parsed = parseCommand(name, decl, args);
  if (parsed === "help") {
    process.stdout.write(name === undefined ? rootHelp(decl, COMMANDS) : commandHelp(name, decl));
    return EXIT.ok;
  }
  try {
    return await decl.run(parsed);
  } catch (err) {
    if (err instanceof UsageError && err.command === undefined) throw new UsageError(err.message, name);
    throw err;
  }
}

async function runSubcommand(entry: CommandEntry, args: string[]): Promise<number> {
  // A reader that stops early (`effectgate install | head -1`) closes the pipe. The command
  // still finishes its work and exits with its own code; only the unread output is lost.
  process.stdout.on("error", (err: NodeJS.ErrnoException) => {
    if (err.code !== "EPIPE" && err.code !== "ERR_STREAM_DESTROYED") throw err;
  });
  return runDeclared(entry.name, (await entry.load()).command, args);
}

function unknownCommand(word: string): UsageError {
  const names = COMMANDS.map((c) => c.name);
  const near = nearKey(word, names);
  return new UsageError(
    `unknown command ${JSON.stringify(word)}; expected one of ${names.join(", ")}` +
      (near === undefined ? "" : ` (did you mean ${near}?)`) +
      `; to relay a server put it after --: effectgate -- ${word} ...`,
  );
}

/** `effectgate help [command]`. */
async function help(args: string[]): Promise<number> {
  const [topic, extra] = args;
  if (extra !== undefined)
    throw new UsageError(`unexpected argument ${JSON.stringify(extra)}; expected one command name`, "help");
  if (topic === undefined || topic === "-h" || topic === "--help") {
    process.stdout.write(rootHelp(await relayCommand(), COMMANDS));
    return EXIT.ok;
  }
  const entry = commandNamed(topic);
  if (entry === undefined) throw unknownCommand(topic);
  process.stdout.write(commandHelp(entry.name, (await entry.load()).command));
  return EXIT.ok;
}

export async function dispatch(argv: string[]): Promise<number> {
  const first = argv[0];
  if (first === undefined) {
    // stdout is the protocol's: a client that started effectgate without a server reads no
    // help text as a frame.
    process.stderr.write(rootHelp(await relayCommand(), COMMANDS));
    return EXIT.usage;
  }
  if (first === "help") return help(argv.slice(1));
  const entry = commandNamed(first);
  if (entry !== undefined) return runSubcommand(entry, argv.slice(1));
  if (!first.startsWith("-")) throw unknownCommand(first);
  // A relay that cannot start (bad words, policy, lock or server) answers the client with why.
  const [relay, { answeringStartFailures }] = await Promise.all([
    import("../relay.js"),
    import("../relay-start-failure.js"),
  ]);
  return answeringStartFailures(() => runDeclared(undefined, relay.command, argv));
}
