/**
 * What a user is told about the default level, where it matters: when `install` wraps servers
 * and in the first session of each server. Observe is the install default (a tool that breaks
 * work on day one is uninstalled on day one), and it protects nothing, so both places say so
 * and give the way to enforce. One line each, no more: a client's log mixes every server's stderr.
 */

/** Lists what enforce would have refused; named here so every message gives the same command. */
const STATUS_COMMAND = "effectgate status";

/** `howToEnforce`: the one change that switches this setup to enforce. */
export function observeNotice(howToEnforce: string): [string, string] {
  return [
    "level observe: every call is relayed and logged, none is refused; the log says what enforce would refuse",
    `to enforce: see what it would have refused with ${STATUS_COMMAND}, then ${howToEnforce}`,
  ];
}

/** For the relay: the change is in the client's config, where effectgate is started. */
export const RELAY_HOW_TO_ENFORCE =
  "run effectgate install --level enforce (or put --level enforce before -- in the client's config)";

/** For install: the same command again, with the level. */
export const INSTALL_HOW_TO_ENFORCE = "run effectgate install --level enforce";
