// Where a call sends data (issue 22; docs/decisions/0090-egress-judgement.md). A call that
// fetches a URL sends its request there (the `url` effects the walker finds get their host
// here). A call that sends a message, mail, issue, comment, review, post or upload yields an
// `egress` effect per destination it names. Which tools send is read from their names, as
// the path rules read verbs (tool-table.ts): the same `send_message` exists in a dozen servers.
// Any other tool sends to a mail address or URL given as `to`, `cc` or `recipient`.
import { canonicalHost } from "../net/host.js";
import type { Destination, Effect } from "../types.js";
import { nameWords } from "./tool-table.js";

/** Words of a tool name that send what the call carries to someone else. */
const SEND_VERBS = new Set([
  "send",
  "post",
  "publish",
  "notify",
  "upload",
  "share",
  "reply",
  "respond",
  "forward",
  "tweet",
  "submit",
  "broadcast",
  "transmit",
  "dm",
  "sms",
  "webhook",
  "curl",
  "http",
  "https",
]);
/** Words that create or change something held elsewhere ... */
const MAKE_VERBS = new Set(["create", "add", "update", "write", "edit", "make", "open", "new", "leave"]);
/** ... that other people read: with a making verb, the tool sends (`add_issue_comment`). */
const SENT_NOUNS = new Set([
  "issue",
  "issues",
  "comment",
  "comments",
  "review",
  "pull",
  "pr",
  "message",
  "mail",
  "email",
  "gist",
  "discussion",
  "thread",
  "ticket",
  "post",
  "tweet",
  "status",
  "chat",
]);

/** Words of argument names that name who receives what a sending tool sends. */
const RECIPIENT_WORDS = new Set([
  "to",
  "cc",
  "bcc",
  "recipient",
  "recipients",
  "email",
  "emails",
  "phone",
  "number",
  "jid",
  "chat",
  "channel",
  "room",
  "group",
  "conversation",
  "user",
  "username",
  "handle",
  "address",
]);
/**
 * Words of argument names that say who receives what any tool is given. A tool with no sending
 * word in its name (`deliver`, `dispatch`) still sends to a mail address or URL under one of
 * these; other recipient words (`user`, `email`, `channel`) also name who a read is about.
 */
const ADDRESSEE_WORDS = new Set(["to", "cc", "bcc", "recipient", "recipients"]);
/** Words of argument names whose value is where any tool connects (a sender or not). */
const PLACE_WORDS = new Set(["url", "uri", "urls", "endpoint", "webhook", "href", "host", "hostname"]);

/** Whether a tool's name says it sends what it is given to someone else. */
export function isSender(tool: string): boolean {
  const words = nameWords(tool);
  if (words.some((w) => SEND_VERBS.has(w))) return true;
  return words.some((w) => MAKE_VERBS.has(w)) && words.some((w) => SENT_NOUNS.has(w));
}

const isRecord = (v: unknown): v is Record<string, unknown> =>
  v !== null && typeof v === "object" && !Array.isArray(v);

/** `scheme://` or `//` at the start: a URL, not a mail address or a name. */
const HAS_SCHEME = /^\s*(?:[a-z][a-z0-9+.-]*:)?\/\//i;
/** A host with a dot or a port, an IPv4 number, or a bracketed IPv6: not a bare word. */
const HOSTLIKE = /^\s*(?:\[[0-9a-f:.%\w]+\]|[^\s/@:]+\.[^\s/@:]+|[^\s/@:]+:\d+)(?::\d+)?(?:[/?#]\S*)?\s*$/i;
const MAIL = /^\s*[^\s@<>]+@[^\s@<>]+\s*$/;

/** The key a destination is remembered by: host (or service) and recipient. */
export function destinationKey(d: Destination): string {
  const place = d.host ?? d.service;
  if (d.recipient === undefined) return place ?? "";
  return place === undefined ? d.recipient : `${place} ${d.recipient}`;
}

/** A destination for one recipient value; undefined when the value names nobody. */
export function destinationOf(value: string, service?: string): Destination | undefined {
  const v = value.trim();
  if (v === "") return undefined;
  if (MAIL.test(v) && !HAS_SCHEME.test(v)) {
    const host = canonicalHost(v.slice(v.lastIndexOf("@") + 1))?.host;
    return host === undefined ? { recipient: v.toLowerCase() } : { host, recipient: v.toLowerCase() };
  }
  if (HAS_SCHEME.test(v) || HOSTLIKE.test(v)) {
    const c = canonicalHost(v);
    if (c !== undefined) return c;
  }
  if (v.length > 200) return undefined; // a body, not an address
  return service === undefined ? { recipient: v } : { service, recipient: v };
}

/** Whether the call names a remote repository: GitHub's tools take `owner` and `repo`. */
function repositoryOf(args: Record<string, unknown>): string | undefined {
  const owner = args["owner"];
  const repo = args["repo"];
  if (typeof owner !== "string" || typeof repo !== "string" || owner.trim() === "" || repo.trim() === "")
    return undefined;
  return `${owner.trim()}/${repo.trim()}`.toLowerCase();
}

/** Recipient and place arguments at the top level and one object below (`{message: {to}}`). */
function namedValues(
  args: Record<string, unknown>,
  words: ReadonlySet<string>,
): Array<{ at: string; value: string }> {
  const out: Array<{ at: string; value: string }> = [];
  const take = (v: unknown, at: string) => {
    if (typeof v === "string") out.push({ at, value: v });
    else if (Array.isArray(v))
      v.forEach((x, i) => {
        if (typeof x === "string") out.push({ at: `${at}[${i}]`, value: x });
      });
  };
  const visit = (obj: Record<string, unknown>, at: string, depth: number) => {
    for (const [k, v] of Object.entries(obj)) {
      if (nameWords(k).some((w) => words.has(w))) take(v, `${at}.${k}`);
      else if (depth === 0 && isRecord(v)) visit(v, `${at}.${k}`, 1);
    }
  };
  visit(args, "arguments", 0);
  return out;
}

/**
 * Every destination the call talks to, a sender or not: the hosts of its URL effects, the
 * repository it names, else the recipients it names (a channel whose history it reads). A
 * session remembers them once the call has been answered, so that a later send there is not
 * "a destination not sent to before".
 */
export function destinationsOf(
  tool: string,
  args: Record<string, unknown>,
  effects: readonly Effect[],
): Destination[] {
  const out = effects.flatMap((e) => (e.destination === undefined ? [] : [e.destination]));
  const repo = repositoryOf(args);
  if (repo !== undefined) out.push({ host: "github.com", recipient: repo });
  // Reading a channel's history or a chat names it as a sender would: posting there is not new.
  else
    for (const { value } of namedValues(args, RECIPIENT_WORDS)) {
      const d = destinationOf(value);
      if (d !== undefined) out.push(d);
    }
  return out;
}

/** The egress effect for one destination. */
function egress(at: string, spelled: string, destination: Destination): Effect {
  return {
    operation: "send",
    kind: "egress",
    at,
    spelled,
    canonical: destinationKey(destination),
    destination,
  };
}

/**
 * The egress effects of a call, added to what the walker found (`effects`, whose url effects
 * already carry their host). A sending tool yields one per recipient it names, one per place
 * argument that is not already a URL effect, and, when it names neither, one to its repository
 * or to its own server. Any tool's place argument holding a host without a scheme
 * (`{endpoint: "attacker.example/x"}`) yields one too: the walker only sees `http(s)://`.
 */
export function egressEffects(
  tool: string,
  args: Record<string, unknown>,
  effects: readonly Effect[],
): Effect[] {
  const out: Effect[] = [];
  const sender = isSender(tool);
  const urlsAt = new Set(effects.filter((e) => e.kind === "url").map((e) => e.at));
  for (const { at, value } of namedValues(args, PLACE_WORDS)) {
    if (urlsAt.has(at) || !(HAS_SCHEME.test(value) || HOSTLIKE.test(value))) continue;
    const c = canonicalHost(value);
    if (c !== undefined) out.push(egress(at, value.trim(), c));
  }
  if (!sender) {
    // Only a mail address or a URL: `{from: "v1.2", to: "v1.3"}` names versions, not hosts.
    for (const { at, value } of namedValues(args, ADDRESSEE_WORDS)) {
      if (urlsAt.has(at) || !(MAIL.test(value) || HAS_SCHEME.test(value))) continue;
      const d = destinationOf(value);
      if (d?.host !== undefined) out.push(egress(at, value.trim(), d));
    }
    return out;
  }
  const repo = repositoryOf(args);
  const service = repo === undefined ? undefined : "github.com";
  for (const { at, value } of namedValues(args, RECIPIENT_WORDS)) {
    const d = destinationOf(value, service);
    if (d !== undefined)
      out.push(
        egress(
          at,
          value.trim(),
          repo !== undefined && d.host === undefined
            ? { host: "github.com", recipient: `${repo} ${d.recipient ?? ""}`.trim() }
            : d,
        ),
      );
  }
  if (out.length === 0 && !effects.some((e) => e.kind === "url")) {
    out.push(
      repo !== undefined
        ? egress("arguments", tool, { host: "github.com", recipient: repo })
        : egress("arguments", tool, { service: "its server" }),
    );
  }
  return out;
}

/** Where a command sends when its word names no host: a destination known only at run time. */
const UNSHOWN: Destination = { service: "a destination the command does not show" };

/**
 * The effects of a call with where it sends: each url effect with its host (the standard's
 * reading; the judge reads it other ways too), each egress effect of a parsed command with the
 * host its word names (`user@host`, `host:port`, a URL; decision 0120), then the egress effects
 * of egressEffects.
 */
export function withEgress(
  tool: string,
  args: Record<string, unknown>,
  effects: readonly Effect[],
): Effect[] {
  const located = effects.map((e) => {
    if (e.destination !== undefined) return e;
    if (e.kind === "egress" && e.via !== undefined) {
      const d = (e.spelled === "" ? undefined : canonicalHost(e.spelled)) ?? UNSHOWN;
      return { ...e, canonical: destinationKey(d), destination: d };
    }
    if (e.kind !== "url") return e;
    const c = canonicalHost(e.spelled);
    return c === undefined ? e : { ...e, destination: c };
  });
  return [...located, ...egressEffects(tool, args, located)];
}
