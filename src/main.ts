#!/usr/bin/env node
// argv → command. The only place that turns errors into exit codes and calls process.exit.
import { CannotStartError, ConfigError, EXIT, formatProblem, UsageError } from "./core/errors.js";

async function dispatch(argv: string[]): Promise<number> {
  // The version needs no parser: answered before commander or any command module loads.
  if (argv[0] === "-V" || argv[0] === "--version") {
    const { versionLine } = await import("./version.js");
    process.stdout.write(versionLine());
    return EXIT.ok;
  }
  const cli = await import("./commands/cli/dispatch.js");
  return cli.dispatch(argv);
}

function exitCodeFor(err: unknown): number {
  if (err instanceof UsageError) {
    process.stderr.write(`effectgate${err.command === undefined ? "" : ` ${err.command}`}: ${err.message}\n`);
    return EXIT.usage;
  }
  if (err instanceof ConfigError) {
    // One line per problem, each with the prefix: a client's log mixes every server's stderr.
    process.stderr.write(err.problems.map((p) => `effectgate: ${formatProblem(p)}\n`).join(""));
    return EXIT.config;
  }
  if (err instanceof CannotStartError) {
    process.stderr.write(`effectgate: ${err.message}\n`);
    return EXIT.cannotStart;
  }
  const message = err instanceof Error ? (err.stack ?? err.message) : String(err);
  process.stderr.write(`effectgate: internal error: ${message}\n`);
  return EXIT.internal;
}

dispatch(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (err: unknown) => {
    process.exitCode = exitCodeFor(err);
  },
);
