import { ConfigError } from "../../core/errors.js";

/**
 * Shutdown timings. The SDK client gives a server 2 s after closing its stdin, then 2 s after
 * SIGTERM, before SIGKILL; ours must both fit inside those windows, so that the real server is
 * always stopped by us (and gets its chances) before the client kills effectgate itself.
 */
export const GRACE_AFTER_EOF_MS = 1000;
export const GRACE_AFTER_TERM_MS = 1000;

/**
 * How long a held call waits for the user's answer to effectgate's question. Later client frames
 * queue behind the held call (order is kept, decision 0002), so this is also the longest they
 * wait. No answer in time is a refusal. Long enough to read the question and decide.
 */
const ASK_TIMEOUT_MS = 5 * 60 * 1000;

/** Overrides ASK_TIMEOUT_MS (a positive whole number of ms); tests shorten it through the CLI. */
const ASK_TIMEOUT_ENV = "EFFECTGATE_ASK_TIMEOUT_MS";

/**
 * The ask timeout in force. Unset or empty: the default. Anything else that is not a whole
 * number of milliseconds from 1 to 9999999999 is a ConfigError (exit 78): a typo must not quietly
 * leave a user waiting five minutes, or not at all.
 */
export function askTimeoutMs(env: NodeJS.ProcessEnv): number {
  const set = env[ASK_TIMEOUT_ENV]?.trim();
  if (set === undefined || set === "") return ASK_TIMEOUT_MS;
  if (!/^[1-9]\d{0,9}$/.test(set))
    throw new ConfigError([
      {
        file: "environment",
        key: ASK_TIMEOUT_ENV,
        expected: "a whole number of milliseconds from 1 to 9999999999",
        got: JSON.stringify(env[ASK_TIMEOUT_ENV]),
      },
    ]);
  return Number(set);
}
