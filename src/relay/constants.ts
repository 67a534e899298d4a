/**
 * Shutdown timings. The SDK client gives a server 2 s after closing its stdin, then 2 s after
 * SIGTERM, before SIGKILL; ours must both fit inside those windows, so that the real server is
 * always stopped by us (and gets its chances) before the client kills effectgate itself.
 */
export const GRACE_AFTER_EOF_MS = 1000;
export const GRACE_AFTER_TERM_MS = 1000;
