#!/usr/bin/env node
// argv → command. The only place that turns errors into exit codes and calls process.exit.
import { CannotStartError, ConfigError, EXIT, UsageError } from "./core/errors.js";

/** Each subcommand module exports `run(args: string[]): Promise<number>`. */
const SUBCOMMANDS: Record<string, { file: string; summary: string }> = {
  check: { file: "./commands/check.js", summary: "explain how one call would be judged" },
  approve: {
    file: "./commands/approve.js",
    summary: "pin a server's tool descriptions in a lockfile (--diff to review)",
  },
  replay: { file: "./commands/replay.js", summary: "print a readable transcript of session logs" },
  eval: { file: "./commands/eval.js", summary: "measure attack recall and benign false positives" },
  install: { file: "./commands/install.js", summary: "wrap the MCP servers in client configs" },
  uninstall: { file: "./commands/uninstall.js", summary: "restore wrapped client configs" },
  verify: { file: "./commands/verify.js", summary: "compare client configs with a baseline" },
  watch: { file: "./commands/watch.js", summary: "report client-config drift as it happens" },
};

const USAGE = `usage: effectgate [--policy default|FILE] [--level observe|enforce|strict] [--lock FILE]
                  [--log-dir DIR] [--name NAME] -- CMD [ARGS...]
       effectgate <command> [options]     (effectgate <command> --help for details)

commands:
${Object.entries(SUBCOMMANDS)
  .map(([name, c]) => `  ${name.padEnd(10)} ${c.summary}`)
  .join("\n")}
  version    print the version
`;

const RELAY_MODULE = "./commands/relay.js";

interface CommandModule {
  run(args: string[]): Promise<number>;
}

async function dispatch(argv: string[]): Promise<number> {
  const first = argv[0];
  if (first === undefined || first === "--help" || first === "-h" || first === "help") {
    process.stdout.write(USAGE);
    return first === undefined ? EXIT.usage : EXIT.ok;
  }
  if (first === "version" || first === "--version") {
    const { VERSION } = await import("./version.js");
    process.stdout.write(
      `effectgate ${VERSION} node ${process.version} ${process.platform}/${process.arch}\n`,
    );
    return EXIT.ok;
  }
  const sub = SUBCOMMANDS[first];
  if (sub) {
    // A reader that stops early (`effectgate install | head -1`) closes the pipe. The command
    // still finishes its work and exits with its own code; only the unread output is lost.
    process.stdout.on("error", (err: NodeJS.ErrnoException) => {
      if (err.code !== "EPIPE" && err.code !== "ERR_STREAM_DESTROYED") throw err;
    });
    const mod = (await import(sub.file)) as CommandModule;
    return mod.run(argv.slice(1));
  }
  if (!first.startsWith("-")) {
    throw new UsageError(
      `unknown command "${first}"; to relay a server put it after --: effectgate -- ${first} ...`,
    );
  }
  const relay = (await import(RELAY_MODULE)) as CommandModule;
  return relay.run(argv);
}

function exitCodeFor(err: unknown): number {
  if (err instanceof UsageError) {
    process.stderr.write(`effectgate: ${err.message}\n`);
    return EXIT.usage;
  }
  if (err instanceof ConfigError) {
    process.stderr.write(`${err.message}\n`);
    return EXIT.config;
  }
  if (err instanceof CannotStartError) {
    process.stderr.write(`effectgate: ${err.message}\n`);
    return EXIT.cannotStart;
  }
  const message = err instanceof Error ? (err.stack ?? err.message) : String(err);
  process.stderr.write(`effectgate: internal error: ${message}\n`);
  return 70;
}

dispatch(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (err: unknown) => {
    process.exitCode = exitCodeFor(err);
  },
);
