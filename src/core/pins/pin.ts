import { canonicalHash } from "../json/jcs.js";
import { describeValue } from "../errors.js";
import { foldVariants } from "../json/key-fold.js";

/** The members of a tool a pin covers. */
const PINNED_FIELDS = [
  "name",
  "title",
  "description",
  "inputSchema",
  "outputSchema",
  "annotations",
  "_meta",
] as const;

/**
 * One tool as approved: the fields a model reads (name, title, description), the fields that
 * shape its arguments and results (inputSchema, outputSchema) and the hints a client may act on
 * (annotations, and `_meta`, which clients read: an MCP App's `ui` resource, say). Absent
 * optional fields are null, so "absent" has one spelling in the hash; `_meta` counts in the hash
 * only when present, so that pins of tools without it keep the hashes they had before it was pinned.
 */
export interface ToolPin {
  name: string;
  description: string | null;
  inputSchema: unknown;
  outputSchema: unknown;
  annotations: unknown;
  title: string | null;
  meta: unknown;
  hash: string;
}

export type PinResult = { ok: true; pin: ToolPin } | { ok: false; name: string; error: string };

const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === "object" && v !== null && !Array.isArray(v);

/** The value hashed for a pin: every pinned field, absent ones as null. */
export function pinnedContent(p: Omit<ToolPin, "hash">): Record<string, unknown> {
  return {
    name: p.name,
    title: p.title,
    description: p.description,
    inputSchema: p.inputSchema,
    outputSchema: p.outputSchema,
    annotations: p.annotations,
    ...(p.meta !== null ? { _meta: p.meta } : {}),
  };
}

/**
 * Pin one tool from a `tools/list` result. A tool that cannot be pinned (no name, a schema that
 * is not an object, a value JCS cannot express, nesting too deep to walk) is reported, never
 * skipped: callers treat it as unverifiable, which is refused like a change.
 */
export function pinTool(tool: unknown): PinResult {
  if (!isObject(tool))
    return { ok: false, name: "", error: `expected a tool object, got ${describeValue(tool)}` };
  const name = tool["name"];
  if (typeof name !== "string" || name === "") {
    // A string name here is the empty one, so there is no name to report either way.
    return { ok: false, name: "", error: `name: expected a non-empty string, got ${describeValue(name)}` };
  }
  const bad = (error: string): PinResult => ({ ok: false, name, error });
  // A Go client (encoding/json) matches member names without regard to case, last one winning:
  // it reads "Description" as the description, which the pin would never see.
  const variant = foldVariants(tool, PINNED_FIELDS)[0];
  if (variant !== undefined)
    return bad(
      `${JSON.stringify(variant)}: a pinned field's name in another case, which clients that ignore case read in its place`,
    );
  // JSON object readers (zod records among them) drop or misread this key, so it cannot be pinned.
  if (name === "__proto__") return bad('name: "__proto__" cannot be stored in a lock file');
  const description = tool["description"] ?? null;
  if (description !== null && typeof description !== "string")
    return bad(`description: expected a string, got ${describeValue(description)}`);
  const title = tool["title"] ?? null;
  if (title !== null && typeof title !== "string")
    return bad(`title: expected a string, got ${describeValue(title)}`);
  const inputSchema = tool["inputSchema"];
  if (!isObject(inputSchema))
    return bad(`inputSchema: expected an object schema, got ${describeValue(inputSchema)}`);
  const outputSchema = tool["outputSchema"] ?? null;
  if (outputSchema !== null && !isObject(outputSchema))
    return bad(`outputSchema: expected an object schema, got ${describeValue(outputSchema)}`);
  const annotations = tool["annotations"] ?? null;
  if (annotations !== null && !isObject(annotations))
    return bad(`annotations: expected an object, got ${describeValue(annotations)}`);
  const meta = tool["_meta"] ?? null;
  if (meta !== null && !isObject(meta)) return bad(`_meta: expected an object, got ${describeValue(meta)}`);
  const fields = { name, description, inputSchema, outputSchema, annotations, title, meta };
  let hash: string;
  try {
    hash = canonicalHash(pinnedContent(fields));
  } catch (err) {
    // Non-finite numbers, or a structure so deep that walking it overflows the stack.
    return bad(`cannot be put in canonical form: ${(err as Error).message}`);
  }
  return { ok: true, pin: { ...fields, hash } };
}

/**
 * Pin an item of another list (prompts, resource templates, resources): its fields minus
 * `_meta`, keyed by `keyField` (`name`; a resource by its `uri`, which is unique where its name
 * need not be). `name` in the result is the key's value.
 */
export function pinItem(
  item: unknown,
  keys: readonly string[],
  keyField = "name",
):
  | { ok: true; name: string; fields: Record<string, unknown>; hash: string }
  | { ok: false; name: string; error: string } {
  if (!isObject(item))
    return { ok: false, name: "", error: `expected an object, got ${describeValue(item)}` };
  const name = item[keyField];
  if (typeof name !== "string" || name === "")
    return {
      ok: false,
      name: "",
      error: `${keyField}: expected a non-empty string, got ${describeValue(name)}`,
    };
  if (name === "__proto__")
    return { ok: false, name, error: `${keyField}: "__proto__" cannot be stored in a lock file` };
  const fields: Record<string, unknown> = {};
  // An absent key stays undefined here; canonical JSON (hash and lock text) leaves it out.
  for (const k of keys) fields[k] = item[k];
  try {
    return { ok: true, name, fields, hash: canonicalHash({ [keyField]: name, ...fields }) };
  } catch (err) {
    return { ok: false, name, error: `cannot be put in canonical form: ${(err as Error).message}` };
  }
}

export const PROMPT_KEYS = ["title", "description", "arguments"] as const;
export const TEMPLATE_KEYS = ["title", "uriTemplate", "description", "mimeType", "annotations"] as const;
/** A resource is keyed by its uri; what a model reads of it is pinned (not its size, which changes with the content). */
export const RESOURCE_KEYS = ["name", "title", "description", "mimeType", "annotations"] as const;
