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
export const ASK_TIMEOUT_MS = 5 * 60 * 1000;

/** Overrides ASK_TIMEOUT_MS (a positive whole number of ms); tests shorten it through the CLI. */
export const ASK_TIMEOUT_ENV = "EFFECTGATE_ASK_TIMEOUT_MS";

export function askTimeoutMs(env: NodeJS.ProcessEnv): number {
  const set = env[ASK_TIMEOUT_ENV]?.trim();
  if (set === undefined || !/^[1-9]\d{0,9}$/.test(set)) return ASK_TIMEOUT_MS;
  return Number(set);
}
