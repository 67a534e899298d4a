import { canonicalHash, canonicalJson } from "../json/jcs.js";
import { compareToolsDetailed, type DetailedToolChange } from "./compare.js";
import { instructionsFinding } from "./instructions.js";
import { diffItems } from "./listing-drift.js";
import { pinItem, pinTool, PROMPT_KEYS, RESOURCE_KEYS, TEMPLATE_KEYS } from "./pin.js";
import { approvedTools, lockToolFromPin, type LockEntry } from "./lock.js";
import type { Finding } from "./severity.js";

/** What a probe of a live server saw, as far as the lock cares. */
export interface LiveServer {
  argv: readonly string[];
  /** A remote server's URL (then argv is empty). */
  url?: string;
  /** Names from `--pin-env`. */
  envNames: readonly string[];
  instructions?: string | undefined;
  tools: readonly unknown[];
  prompts?: readonly unknown[] | undefined;
  resourceTemplates?: readonly unknown[] | undefined;
  resources?: readonly unknown[] | undefined;
}

export type BuiltEntry = { ok: true; entry: LockEntry } | { ok: false; problems: string[] };

/** The lock entry for a live server; refuses when any tool, prompt or template cannot be pinned. */
export function buildEntry(live: LiveServer): BuiltEntry {
  const problems: string[] = [];
  const tools: LockEntry["tools"] = {};
  const entries: [string, LockEntry["tools"][string]][] = [];
  for (const t of live.tools) {
    const r = pinTool(t);
    if (!r.ok) problems.push(`tool "${r.name || "(unnamed)"}": ${r.error}`);
    else if (entries.some(([n]) => n === r.pin.name)) problems.push(`tool "${r.pin.name}": listed twice`);
    else entries.push([r.pin.name, lockToolFromPin(r.pin)]);
  }
  Object.assign(tools, Object.fromEntries(entries));
  const items = (
    list: readonly unknown[] | undefined,
    keys: readonly string[],
    what: string,
    keyField = "name",
  ) => {
    if (list === undefined) return undefined;
    const out: [string, Record<string, unknown> & { hash: string }][] = [];
    for (const item of list) {
      const r = pinItem(item, keys, keyField);
      if (!r.ok) problems.push(`${what} "${r.name || "(unnamed)"}": ${r.error}`);
      else if (out.some(([n]) => n === r.name)) problems.push(`${what} "${r.name}": listed twice`);
      else
        out.push([
          r.name,
          { ...(JSON.parse(canonicalJson(r.fields)) as Record<string, unknown>), hash: r.hash },
        ]);
    }
    return Object.fromEntries(out);
  };
  const prompts = items(live.prompts, PROMPT_KEYS, "prompt");
  const resourceTemplates = items(live.resourceTemplates, TEMPLATE_KEYS, "resource template");
  const resources = items(live.resources, RESOURCE_KEYS, "resource", "uri");
  if (problems.length > 0) return { ok: false, problems };
  const [command = "", ...args] = live.argv;
  return {
    ok: true,
    entry: {
      ...(live.url !== undefined ? { url: live.url } : { command, args }),
      env: [...new Set(live.envNames)].sort(),
      ...(live.instructions !== undefined
        ? { instructions: live.instructions, instructionsHash: canonicalHash(live.instructions) }
        : {}),
      tools,
      ...(prompts !== undefined ? { prompts } : {}),
      ...(resourceTemplates !== undefined ? { resourceTemplates } : {}),
      ...(resources !== undefined ? { resources } : {}),
    },
  };
}

const list = (xs: readonly string[]): string => xs.map((x) => JSON.stringify(x)).join(", ");

/**
 * Every difference between the approved entry and the live server, as sentences with a
 * severity. Tool differences come from the same comparison the relay uses at run time.
 */
export function diffEntry(
  approved: LockEntry,
  live: LiveServer,
): { server: Finding[]; tools: DetailedToolChange[] } {
  const server: Finding[] = [];
  const [command = "", ...args] = live.argv;
  if (approved.url !== undefined || live.url !== undefined) {
    if (approved.url !== live.url)
      server.push({
        text:
          approved.url === undefined
            ? `was the command ${JSON.stringify([approved.command ?? "", ...(approved.args ?? [])].join(" "))}, now the URL ${JSON.stringify(live.url)}`
            : live.url === undefined
              ? `was the URL ${JSON.stringify(approved.url)}, now the command ${JSON.stringify(live.argv.join(" "))}`
              : `URL changed from ${JSON.stringify(approved.url)} to ${JSON.stringify(live.url)}`,
        severity: "high",
      });
  } else {
    if (approved.command !== command)
      server.push({
        text: `command changed from ${JSON.stringify(approved.command)} to ${JSON.stringify(command)}`,
        severity: "high",
      });
    if (canonicalJson(approved.args) !== canonicalJson(args))
      server.push({
        text: `arguments changed from [${list(approved.args ?? [])}] to [${list(args)}]`,
        severity: "high",
      });
  }
  const envNow = new Set(live.envNames);
  const envThen = new Set(approved.env);
  const added = [...envNow].filter((n) => !envThen.has(n)).sort();
  const removed = [...envThen].filter((n) => !envNow.has(n)).sort();
  if (added.length)
    server.push({ text: `environment variable names added: ${added.join(", ")}`, severity: "medium" });
  if (removed.length)
    server.push({ text: `environment variable names removed: ${removed.join(", ")}`, severity: "low" });
  const instructions = instructionsFinding(approved.instructions, live.instructions);
  if (instructions !== undefined) server.push(instructions);
  diffItems(approved.prompts, live.prompts, PROMPT_KEYS, "prompt", server);
  diffItems(approved.resourceTemplates, live.resourceTemplates, TEMPLATE_KEYS, "resource template", server);
  diffItems(approved.resources, live.resources, RESOURCE_KEYS, "resource", server, "uri");
  return { server, tools: compareToolsDetailed(approvedTools(approved), live.tools) };
}
