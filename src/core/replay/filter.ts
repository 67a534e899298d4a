// Which sessions and which of their lines a filtered replay shows (`--server`, `--refused`,
// `--tool`, `--grep`). Sessions are chosen by who they were; lines by what they say. A session
// none of whose lines is chosen is left out when any line filter is given.
import { formatItem } from "./format.js";
import type { ReplayItem, ReplaySession } from "./replay-item.js";

export interface LineFilter {
  /** Only lines about calls effectgate refused (the call, the refusal, its answer). */
  refused: boolean;
  /** Only lines about a tool whose name this accepts (the command matches the policy's tool globs). */
  tool?: (name: string) => boolean;
  /** Only lines whose text (as printed, and the whole of what was clipped) matches. */
  grep?: RegExp;
}

export const hasLineFilter = (f: LineFilter): boolean =>
  f.refused || f.tool !== undefined || f.grep !== undefined;

/** The lines of a session the filter keeps; every line when it keeps all. */
export function chosenItems(s: ReplaySession, f: LineFilter): ReplayItem[] {
  if (!hasLineFilter(f)) return s.items;
  const tool = f.tool;
  return s.items.filter(
    (item) =>
      (!f.refused || item.refused === true) &&
      (tool === undefined || (item.tool !== undefined && tool(item.tool))) &&
      (f.grep === undefined || grepMatches(f.grep, item)),
  );
}

function grepMatches(re: RegExp, item: ReplayItem): boolean {
  const texts = [formatItem(item), item.detail ?? "", item.tool ?? "", ...(item.effects ?? [])];
  return texts.some((t) => re.test(t));
}

/**
 * Whether a session is a given server's: its `--name`, or any word of its command line or
 * that word's last path segment (`server-filesystem` for `/usr/bin/server-filesystem`).
 */
export function isServer(s: ReplaySession, matches: (name: string) => boolean): boolean {
  const h = s.header;
  if (!h) return false;
  if (h.name !== null && matches(h.name)) return true;
  return h.server.some((word) => matches(word) || matches(word.split(/[\\/]/).pop() ?? word));
}
