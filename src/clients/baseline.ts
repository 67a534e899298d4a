// Config baselines: what every discovered config declared, reduced to launch-relevant fields with
// env and header NAMES only (values are secrets and change without changing what runs). Stored as
// canonical JSON with a hash per server and one over the whole file, both recomputed on load.
import { z } from "zod";
import { canonicalHash } from "../core/json/jcs.js";
import { type ConfigProblem, describeValue } from "../core/errors.js";
import { parseStrictJson } from "../core/json/strict-json.js";
import { recognise } from "./relay-argv.js";
import type { ConfigFile, ServerDecl } from "./types.js";

const serverSchema = z.strictObject({
  name: z.string(),
  kind: z.enum(["stdio", "remote", "invalid"]),
  command: z.string().optional(),
  args: z.array(z.string()).optional(),
  url: z.string().optional(),
  cwd: z.string().optional(),
  type: z.string().optional(),
  envNames: z.array(z.string()),
  headerNames: z.array(z.string()),
  /** Starts through this effectgate (relay-argv.ts isGenuine), not merely something shaped like it. */
  wrapped: z.boolean(),
  /** Shaped like an effectgate wrapper, but not this effectgate (a look-alike, or a moved install).
   *  Optional, like `off`, and written only when true, so older baselines load and hash the same. */
  foreign: z.literal(true).optional(),
  /** Its env switches every check off (EFFECTGATE_OFF with an affirmative value). */
  off: z.literal(true).optional(),
  hash: z.string().regex(/^[0-9a-f]{64}$/),
});

const fileSchema = z.strictObject({
  path: z.string(),
  client: z.string(),
  scope: z.enum(["user", "project", "system"]),
  error: z.string().optional(),
  servers: z.array(serverSchema),
});

const baselineSchema = z.strictObject({
  version: z.literal(1),
  project: z.string(),
  files: z.array(fileSchema),
  hash: z.string().regex(/^[0-9a-f]{64}$/),
});

export type ServerRecord = z.infer<typeof serverSchema>;
export type FileRecord = z.infer<typeof fileSchema>;
export type Baseline = z.infer<typeof baselineSchema>;

/** `isOff` is the relay's own rule for EFFECTGATE_OFF (relay/gates/off-switch.ts), passed in by the
 *  command because this layer may not import the relay. */
export function serverRecord(
  decl: ServerDecl,
  knownMains: readonly string[],
  isOff: (value: string) => boolean,
): ServerRecord {
  const r = decl.argv === undefined ? undefined : recognise(decl.argv, knownMains);
  const shaped = r?.wrapped === true;
  const body: Omit<ServerRecord, "hash"> = {
    name: decl.name,
    kind: decl.kind,
    envNames: [...decl.envNames].sort(),
    headerNames: [...decl.headerNames].sort(),
    wrapped: shaped && r.genuine,
  };
  if (shaped && !r.genuine) body.foreign = true;
  if ((decl.offValues ?? []).some(isOff)) body.off = true;
  if (decl.argv) {
    body.command = decl.argv[0] as string;
    body.args = decl.argv.slice(1);
  }
  if (decl.url !== undefined) body.url = decl.url;
  if (decl.cwd !== undefined) body.cwd = decl.cwd;
  if (decl.type !== undefined) body.type = decl.type;
  return { ...body, hash: canonicalHash(body) };
}

export function fileRecord(file: ConfigFile, servers: ServerRecord[], error?: string): FileRecord {
  const rec: FileRecord = { path: file.path, client: file.client, scope: file.scope, servers };
  if (error !== undefined) rec.error = error;
  return rec;
}

export function makeBaseline(project: string, files: FileRecord[]): Baseline {
  return { version: 1, project, files, hash: canonicalHash({ version: 1, project, files }) };
}

/** Validates a baseline's text: strict schema, then every hash recomputed. */
export function loadBaseline(path: string, text: string): Baseline | ConfigProblem[] {
  const parsed = parseStrictJson(text.replace(/^\uFEFF/, ""));
  if (!parsed.ok)
    return [
      { file: path, key: "(file)", expected: "JSON written by effectgate verify --write", got: parsed.error },
    ];
  const result = baselineSchema.safeParse(parsed.value);
  if (!result.success) {
    return result.error.issues.map((i) => ({
      file: path,
      line: 1,
      key: i.path.length === 0 ? "(top)" : i.path.join("."),
      expected:
        i.code === "unrecognized_keys"
          ? "no other keys"
          : (i.message.replace(/^Invalid input: expected /, "").split(",")[0] ?? i.message),
      got:
        i.code === "unrecognized_keys"
          ? `unknown key ${i.keys.join(", ")}`
          : describeValue(valueAt(parsed.value, i.path)),
    }));
  }
  const b = result.data;
  const problems: ConfigProblem[] = [];
  b.files.forEach((f, fi) =>
    f.servers.forEach((s, si) => {
      const { hash, ...body } = s;
      const want = canonicalHash(body);
      if (want !== hash)
        problems.push({
          file: path,
          line: 1,
          key: `files.${fi}.servers.${si}.hash`,
          expected: want,
          got: hash,
        });
    }),
  );
  const want = canonicalHash({ version: b.version, project: b.project, files: b.files });
  if (want !== b.hash) problems.push({ file: path, line: 1, key: "hash", expected: want, got: b.hash });
  return problems.length > 0 ? problems : b;
}

function valueAt(v: unknown, path: readonly PropertyKey[]): unknown {
  let cur = v;
  for (const k of path)
    cur = cur !== null && typeof cur === "object" ? (cur as Record<PropertyKey, unknown>)[k] : undefined;
  return cur;
}
