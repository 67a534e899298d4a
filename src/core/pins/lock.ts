import { z } from "zod";
import { canonicalHash, canonicalJson } from "../json/jcs.js";
import { pinItem, pinTool, PROMPT_KEYS, RESOURCE_KEYS, TEMPLATE_KEYS, type ToolPin } from "./pin.js";

/**
 * The lock file's model: `{version: 1, servers: {<identity>: entry}}`. Pure: reading and
 * writing the file is src/config/lock-file.ts. Hashes are SHA-256 of JCS, so the presentation of
 * the file (key order, whitespace) never matters; only values do.
 */

const JsonObject = z.record(z.string(), z.unknown());
const Hash = z.string().regex(/^[0-9a-f]{64}$/, "a SHA-256 in lower-case hex");

export const LockTool = z.strictObject({
  description: z.string().nullable(),
  title: z.string().optional(),
  inputSchema: JsonObject,
  outputSchema: JsonObject.optional(),
  annotations: JsonObject.optional(),
  _meta: JsonObject.optional(),
  hash: Hash,
});

const LockPrompt = z.strictObject({
  title: z.unknown().optional(),
  description: z.unknown().optional(),
  arguments: z.unknown().optional(),
  hash: Hash,
});

const LockTemplate = z.strictObject({
  title: z.unknown().optional(),
  uriTemplate: z.unknown().optional(),
  description: z.unknown().optional(),
  mimeType: z.unknown().optional(),
  annotations: z.unknown().optional(),
  hash: Hash,
});

const LockResource = z.strictObject({
  name: z.unknown().optional(),
  title: z.unknown().optional(),
  description: z.unknown().optional(),
  mimeType: z.unknown().optional(),
  annotations: z.unknown().optional(),
  hash: Hash,
});

export const LockEntry = z.strictObject({
  /** A server started as a command (the relay's `-- CMD ARGS…`)… */
  command: z.string().optional(),
  args: z.array(z.string()).optional(),
  /** …or a remote one (`--url`): its URL as the pin identity spells it. Exactly one of the two. */
  url: z.string().optional(),
  /** Names of environment variables pinned with `--pin-env`; values are never stored. */
  env: z.array(z.string()),
  instructions: z.string().optional(),
  instructionsHash: Hash.optional(),
  tools: z.record(z.string(), LockTool),
  prompts: z.record(z.string(), LockPrompt).optional(),
  resourceTemplates: z.record(z.string(), LockTemplate).optional(),
  /** Keyed by uri. */
  resources: z.record(z.string(), LockResource).optional(),
});

export const LockFile = z.strictObject({
  version: z.literal(1),
  servers: z.record(
    z.string(),
    LockEntry.superRefine((e, ctx) => {
      const command = e.command !== undefined || e.args !== undefined;
      if (command === (e.url !== undefined))
        ctx.addIssue({
          code: "custom",
          message: "expected either command and args (a command) or url (a remote server)",
        });
      else if (command && (e.command === undefined || e.args === undefined))
        ctx.addIssue({ code: "custom", message: "expected both command and args" });
    }),
  ),
});

export type LockTool = z.infer<typeof LockTool>;
export type LockEntry = z.infer<typeof LockEntry>;
export type LockFile = z.infer<typeof LockFile>;

/** Sorted keys, so the file reads the same however the server ordered its schema. */
const sortedCopy = (v: unknown): unknown => JSON.parse(canonicalJson(v)) as unknown;

export function lockToolFromPin(p: ToolPin): LockTool {
  // Built in reading order: description, title, inputSchema, outputSchema, annotations, _meta, hash.
  return {
    description: p.description,
    ...(p.title !== null ? { title: p.title } : {}),
    inputSchema: sortedCopy(p.inputSchema) as Record<string, unknown>,
    ...(p.outputSchema !== null
      ? { outputSchema: sortedCopy(p.outputSchema) as Record<string, unknown> }
      : {}),
    ...(p.annotations !== null ? { annotations: sortedCopy(p.annotations) as Record<string, unknown> } : {}),
    ...(p.meta !== null ? { _meta: sortedCopy(p.meta) as Record<string, unknown> } : {}),
    hash: p.hash,
  };
}

/** The pin a lock entry describes, with its hash recomputed (never trusted from the file). */
export function pinFromLockTool(name: string, t: LockTool): ReturnType<typeof pinTool> {
  return pinTool({
    name,
    description: t.description,
    title: t.title,
    inputSchema: t.inputSchema,
    outputSchema: t.outputSchema,
    annotations: t.annotations,
    _meta: t._meta,
  });
}

export interface HashProblem {
  /** JSON path of the entry, e.g. `servers["fs"].tools["read_file"]`. */
  at: string[];
  field: string;
  recomputed: string;
  stored: string;
}

const key = (s: string): string => `[${JSON.stringify(s)}]`;

/** Every stored hash compared with one recomputed from the values beside it. */
export function hashProblems(lock: LockFile): HashProblem[] {
  const out: HashProblem[] = [];
  for (const [id, entry] of Object.entries(lock.servers)) {
    const base = ["servers", id];
    for (const [name, t] of Object.entries(entry.tools)) {
      const r = pinFromLockTool(name, t);
      const recomputed = r.ok ? r.pin.hash : `(cannot be computed: ${r.error})`;
      if (recomputed !== t.hash)
        out.push({ at: [...base, "tools", name], field: "hash", recomputed, stored: t.hash });
    }
    for (const [group, keys, keyField] of [
      ["prompts", PROMPT_KEYS, "name"],
      ["resourceTemplates", TEMPLATE_KEYS, "name"],
      ["resources", RESOURCE_KEYS, "uri"],
    ] as const) {
      for (const [name, item] of Object.entries(entry[group] ?? {})) {
        const r = pinItem({ ...item, [keyField]: name }, keys, keyField);
        const recomputed = r.ok ? r.hash : `(cannot be computed: ${r.error})`;
        if (recomputed !== item.hash)
          out.push({ at: [...base, group, name], field: "hash", recomputed, stored: item.hash });
      }
    }
    if (entry.instructions !== undefined || entry.instructionsHash !== undefined) {
      const recomputed =
        entry.instructions === undefined ? "(no instructions)" : canonicalHash(entry.instructions);
      if (recomputed !== entry.instructionsHash)
        out.push({
          at: base,
          field: "instructionsHash",
          recomputed,
          stored: entry.instructionsHash ?? "(none)",
        });
    }
  }
  return out;
}

/** `servers["fs"].tools["read_file"]` from a path of names. */
export function formatLockPath(at: readonly (string | number)[]): string {
  let s = "";
  for (let i = 0; i < at.length; i++) {
    const part = at[i]!;
    // at[-1] is undefined, so the first part is never a name.
    const named =
      at[i - 1] === "servers" ||
      at[i - 1] === "tools" ||
      at[i - 1] === "prompts" ||
      at[i - 1] === "resourceTemplates" ||
      at[i - 1] === "resources";
    if (typeof part === "number") s += `[${part}]`;
    else if (named) s += key(part);
    else s += s === "" ? part : `.${part}`;
  }
  return s;
}

/** The approved tools of an entry, keyed by name. Callers have checked hashes on load. */
export function approvedTools(entry: LockEntry): Map<string, ToolPin> {
  const m = new Map<string, ToolPin>();
  for (const [name, t] of Object.entries(entry.tools)) {
    const r = pinFromLockTool(name, t);
    // Keep the stored hash: if a hand edit slipped through, the live tool will not match it.
    if (r.ok) m.set(name, { ...r.pin, hash: t.hash });
  }
  return m;
}

/** The lock text: 2-space indent, servers and items sorted by name, newline at the end. */
export function serializeLock(lock: LockFile): string {
  // The default sort compares UTF-16 code units, the order JCS uses too.
  const sortRecord = <T>(r: Record<string, T>): Record<string, T> =>
    Object.fromEntries(
      Object.keys(r)
        .sort()
        .map((k) => [k, r[k] as T]),
    );
  // fromEntries defines own properties, so even a server named "__proto__" stays data.
  const servers = Object.fromEntries(
    Object.entries(sortRecord(lock.servers)).map(([id, e]): [string, LockEntry] => [
      id,
      {
        ...(e.url !== undefined ? { url: e.url } : { command: e.command ?? "", args: e.args ?? [] }),
        env: [...e.env].sort(),
        // JSON.stringify leaves both out when there are no instructions.
        instructions: e.instructions,
        instructionsHash: e.instructionsHash,
        tools: sortRecord(e.tools),
        ...(e.prompts !== undefined ? { prompts: sortRecord(e.prompts) } : {}),
        ...(e.resourceTemplates !== undefined ? { resourceTemplates: sortRecord(e.resourceTemplates) } : {}),
        ...(e.resources !== undefined ? { resources: sortRecord(e.resources) } : {}),
      },
    ]),
  );
  return `${JSON.stringify({ version: 1, servers }, null, 2)}\n`;
}
