/**
 * `effectgate [--policy P] [--level L] [--lock F] [--log-dir D] [--name N] -- CMD ARGS…`
 * `effectgate [same options] --url URL [--header 'Name: value']… [--transport auto|http|sse]`
 * Declares the options (parsed by src/commands/cli/); relay-args.ts reads them, and
 * relay-run.ts runs the session.
 */
import { UsageError } from "../core/errors.js";
import type { CommandDeclaration } from "./cli/declaration.js";
import { parseCommand } from "./cli/parse.js";
import { dialogOption, levelOption, policyOption } from "./cli/values.js";
import { remoteOptions, urlOption } from "./cli/remote-options.js";
import { relayArgs, type RelayArgs } from "./relay-args.js";
import { runRelaySession } from "./relay-run.js";

export const command: CommandDeclaration = {
  description:
    "Relay one MCP server over stdio and judge every tools/call by its effects: the paths it " +
    "writes and reads, the commands it runs, where it sends data. At observe calls are logged; " +
    "at enforce and strict, denied calls are refused before they reach the server.\n\n" +
    "EFFECTGATE_OFF=1 turns every check off for a run (calls are still logged). Exit codes: the " +
    "server's own; 2 bad words; 78 a policy or lock that cannot be used; 127 a server that " +
    "cannot be started.",
  options: [
    policyOption("default or a policy file (YAML, see docs/policy.md)"),
    levelOption("the policy's mode, else observe"),
    {
      flags: "--lock <file>",
      meaning: "refuse tools whose descriptions changed since `effectgate approve` pinned them",
      default: "none (no pins checked)",
    },
    {
      flags: "--log-dir <dir>",
      meaning: "where session logs are written",
      default: "$EFFECTGATE_HOME/sessions, else ~/.effectgate/sessions",
    },
    {
      flags: "--name <name>",
      meaning: "the server's name, for the policy's server globs and the log",
      default: "none",
    },
    dialogOption,
    urlOption,
    ...remoteOptions,
  ],
  serverCommand: {
    example: "effectgate -- npx -y @modelcontextprotocol/server-filesystem ~/work",
    unlessOption: "url",
  },
  examples: [
    {
      command: "effectgate -- npx -y @modelcontextprotocol/server-filesystem ~/work",
      says: "relay a filesystem server with the shipped policy, logging only (observe)",
    },
    {
      command:
        "effectgate --level enforce --name fs -- npx -y @modelcontextprotocol/server-filesystem ~/work",
      says: "refuse the calls the policy denies",
    },
    { command: "effectgate install --level enforce", says: "wrap every server in your clients' configs" },
  ],
  run: (parsed) => runRelaySession(parsed.words, relayArgs(parsed.options, parsed.server)),
};

export function parseRelayArgs(args: readonly string[]): RelayArgs {
  const parsed = parseCommand(undefined, command, args);
  if (parsed === "help") throw new UsageError("expected relay options, got --help");
  return relayArgs(parsed.options, parsed.server);
}
