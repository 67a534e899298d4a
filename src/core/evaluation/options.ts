// Command-line words of `effectgate eval`.
import { UsageError } from "../errors.js";

export const HELP = `usage: effectgate eval [--attack DIR] [--benign FILE|DIR] [--policy default|FILE] [--json]
                      [--min-recall R] [--max-blocks-per-week N] [--exclude ID...] [--exclude-file F]...

Measure a policy. With neither --attack nor --benign, both shipped corpora are used.
  --attack DIR            attack scenarios (corpus/attack): recall per level and category
  --benign FILE|DIR       session logs of ordinary work: every call judged again, blocks per week
                          of active time (a folder's excluded-sessions.txt is applied)
  --policy P              the policy to measure (default: the shipped one)
  --min-recall R          exit 1 when recall at enforce is below R (0..1, or a percentage like 90%),
                          or when no attack scenario was measured
  --max-blocks-per-week N exit 1 when blocks per week at enforce exceed N, or cannot be said
  --exclude ID...         leave these benign sessions out (an ID that names no session is an error)
  --exclude-file F        also leave out the sessions listed in F, one "ID  # reason" per line
                          (repeatable; a benign folder's excluded-sessions.txt always applies)
  --json                  one JSON document instead of text
`;

export interface EvalOptions {
  help: boolean;
  attack?: string;
  benign?: string;
  policy?: string;
  json: boolean;
  minRecall?: number;
  maxBlocksPerWeek?: number;
  exclude: string[];
  /** Every --exclude-file, in order (absent when none was given). */
  excludeFiles?: string[];
}

/** Plain decimal notation only: Number() would also take 0x1, 1e-1, Infinity and " 1". */
const DECIMAL = /^(?:\d+(?:\.\d*)?|\.\d+)$/;

function number(flag: string, raw: string | undefined, percent: boolean): number {
  if (raw === undefined) throw new UsageError(`eval: ${flag} expected a number, got nothing`);
  const isPct = percent && raw.endsWith("%");
  const digits = isPct ? raw.slice(0, -1) : raw;
  if (!DECIMAL.test(digits))
    throw new UsageError(`eval: ${flag} expected a non-negative number, got "${raw}"`);
  // `e-2` shifts the decimal point, so 84.5% is exactly the number 0.845 (84.5 / 100 is not).
  const v = Number(isPct ? `${digits}e-2` : digits);
  if (percent && v > 1)
    throw new UsageError(`eval: ${flag} expected a fraction from 0 to 1 (or a percentage), got "${raw}"`);
  return v;
}

export function parseEvalArgs(args: readonly string[]): EvalOptions {
  const o: EvalOptions = { help: false, json: false, exclude: [] };
  const value = (i: number, flag: string): string => {
    const v = args[i + 1];
    if (v === undefined || v.startsWith("--"))
      throw new UsageError(`eval: ${flag} expected a value, got ${v === undefined ? "nothing" : `"${v}"`}`);
    return v;
  };
  for (let i = 0; i < args.length; i++) {
    const a = args[i] as string;
    switch (a) {
      case "--help":
      case "-h":
        o.help = true;
        break;
      case "--json":
        o.json = true;
        break;
      case "--attack":
        o.attack = value(i++, a);
        break;
      case "--benign":
        o.benign = value(i++, a);
        break;
      case "--policy":
        o.policy = value(i++, a);
        break;
      case "--exclude-file":
        (o.excludeFiles ??= []).push(value(i++, a));
        break;
      case "--min-recall":
        o.minRecall = number(a, args[++i], true);
        break;
      case "--max-blocks-per-week":
        o.maxBlocksPerWeek = number(a, args[++i], false);
        break;
      case "--exclude":
        value(i, a);
        while (args[i + 1] !== undefined && !(args[i + 1] as string).startsWith("--"))
          o.exclude.push(args[++i] as string);
        break;
      default:
        throw new UsageError(
          `eval: unknown ${a.startsWith("-") ? "option" : "argument"} "${a}"; see effectgate eval --help`,
        );
    }
  }
  return o;
}
