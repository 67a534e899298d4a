/**
 * The relay's options as read from its words: what `effectgate [options] -- CMD` or `--url URL`
 * asked for, the argv the log may keep, and the folder its log goes to.
 */
import type { Level } from "../core/types.js";
import { defaultSessionsDir } from "../log/naming.js";
import type { DialogSetting } from "../relay/client/desktop-ask.js";
import { loggableHeaderOption } from "../core/remote/header-option.js";
import { remoteArgs, type RemoteArgs } from "./cli/remote-options.js";

export interface RelayArgs {
  policy?: string;
  level?: Level;
  lock?: string;
  logDir?: string;
  name?: string;
  server: string[];
  /** `--url` and its companions: a remote server instead of a command. */
  remote?: RemoteArgs;
  /** `--dialog`: ask in a desktop dialog when the client cannot be asked (decision 0126). */
  dialog?: DialogSetting;
}

/** The relay's choices from the options commander parsed and the server's command. */
export function relayArgs(options: Record<string, unknown>, server: string[]): RelayArgs {
  const pick = (k: "policy" | "level" | "lock" | "logDir" | "name") =>
    options[k] === undefined ? {} : { [k]: options[k] as string };
  const remote = remoteArgs(options);
  return {
    ...pick("policy"),
    ...(options["level"] === undefined ? {} : { level: options["level"] as Level }),
    ...pick("lock"),
    ...pick("logDir"),
    ...pick("name"),
    ...(options["dialog"] === undefined ? {} : { dialog: options["dialog"] as DialogSetting }),
    server,
    ...(remote ? { remote } : {}),
  };
}

/** The relay's argv with each `--header` value replaced by where it came from. */
export function loggableArgv(args: readonly string[]): string[] {
  const out: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const word = args[i] as string;
    if (word === "--") return [...out, ...args.slice(i)];
    if (word === "--header" && i + 1 < args.length) {
      out.push(word, loggableHeaderOption(args[++i] as string));
    } else if (word.startsWith("--header=")) out.push(`--header=${loggableHeaderOption(word.slice(9))}`);
    else out.push(word);
  }
  return out;
}

export function sessionDir(logDir: string | undefined, env: NodeJS.ProcessEnv): string {
  return logDir ? logDir : defaultSessionsDir(env);
}
