// A small option parser for the client subcommands: long flags, values as the next word or
// after `=`, repeatable values collected in order. Unknown flags are usage errors.
import { statSync } from "node:fs";
import { resolve } from "node:path";
import { UsageError } from "../core/errors.js";

export interface OptionSpec {
  flags: readonly string[]; // boolean
  values: readonly string[]; // take one value
  repeatable: readonly string[]; // subset of values that may repeat
}

export interface Options {
  flags: Set<string>;
  values: Map<string, string[]>;
}

export function parseOptions(command: string, args: string[], spec: OptionSpec): Options {
  const out: Options = { flags: new Set(), values: new Map() };
  for (let i = 0; i < args.length; i++) {
    const word = args[i] as string;
    const eq = word.indexOf("=");
    const name = word.startsWith("--") && eq > 0 ? word.slice(0, eq) : word;
    if (spec.flags.includes(name) && eq < 0) {
      out.flags.add(name);
    } else if (spec.values.includes(name)) {
      const value = eq > 0 && word.startsWith("--") ? word.slice(eq + 1) : args[++i];
      if (value === undefined || value === "")
        throw new UsageError(`${command} ${name}: expected a value, got nothing`);
      const list = out.values.get(name) ?? [];
      if (list.length > 0 && !spec.repeatable.includes(name))
        throw new UsageError(`${command} ${name}: expected once, got it twice`);
      list.push(value);
      out.values.set(name, list);
    } else {
      const known = [...spec.flags, ...spec.values].join(", ");
      throw new UsageError(`${command}: unknown option ${JSON.stringify(word)}; expected one of ${known}`);
    }
  }
  return out;
}

export function single(o: Options, name: string): string | undefined {
  return o.values.get(name)?.[0];
}

/** `--project DIR` made absolute; a folder that does not exist is a usage error (exit 2), since
 *  every project config would silently be "not found" in it. */
export function projectOption(command: string, o: Options): string | undefined {
  const value = single(o, "--project");
  if (value === undefined) return undefined;
  const dir = resolve(value);
  let isDir = false;
  try {
    isDir = statSync(dir).isDirectory();
  } catch {
    // missing or unreadable: said below
  }
  if (!isDir)
    throw new UsageError(`${command} --project: expected an existing folder, got ${JSON.stringify(value)}`);
  return dir;
}
