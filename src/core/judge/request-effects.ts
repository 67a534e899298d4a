// The effects a judged request names, before canonicalisation: read from its method and params
// (also used by taint on answers, which reads the request an answer belongs to).
import { type ContainerKind, containerTest } from "../effects/containers.js";
import { withEgress } from "../effects/egress.js";
import { extractEffects } from "../effects/extract.js";
import { isUrl } from "../effects/string-shapes.js";
import { knownTool } from "../effects/tool-table.js";
import type { ShellState } from "../commands/api.js";
import type { CommandSetup } from "../commands/setup.js";
import type { CompiledPolicy } from "../policy/api.js";
import type { Effect } from "../types.js";

const isRecord = (v: unknown): v is Record<string, unknown> =>
  v !== null && typeof v === "object" && !Array.isArray(v);

/** What a message about the call names: its tool or prompt, else the method. */
export const subjectOf = (method: string, params: unknown): string =>
  isRecord(params) && typeof params["name"] === "string" ? params["name"] : method;

/** The call's target and arguments, per judged method; a string when the params are ill-formed. */
function callShape(
  method: string,
  params: unknown,
): { subject: string; args: Record<string, unknown> } | { effects: Effect[]; subject: string } | string {
  if (!isRecord(params))
    return `${method} params must be an object, got ${params === undefined ? "none" : params === null ? "null" : Array.isArray(params) ? "a list" : typeof params}`;
  if (method === "resources/read") {
    const uri = params["uri"];
    if (typeof uri !== "string") return `resources/read needs a string uri, got ${typeof uri}`;
    // file:// and scheme-less URIs name local files; http(s) is a network read; other schemes are
    // the server's own namespace (memo://, postgres://) and name nothing on this machine.
    if (isUrl(uri))
      return {
        subject: uri,
        effects: withEgress(uri, {}, [{ operation: "read", kind: "url", at: "uri", spelled: uri }]),
      };
    const scheme = /^([a-z][a-z0-9+.-]+):/i.exec(uri)?.[1]?.toLowerCase();
    if (scheme !== undefined && scheme !== "file") return { subject: uri, effects: [] };
    return { subject: uri, effects: [{ operation: "read", kind: "path", at: "uri", spelled: uri }] };
  }
  const name = params["name"];
  if (typeof name !== "string")
    return `${method} needs a string name, got ${name === undefined ? "none" : typeof name}`;
  const args = params["arguments"];
  if (args === undefined || args === null) return { subject: name, args: {} };
  if (!isRecord(args))
    return `${method} arguments must be an object, got ${Array.isArray(args) ? "a list" : typeof args}`;
  return { subject: name, args };
}

export type RequestEffects =
  | {
      subject: string;
      effects: Effect[];
      execGlob: string | undefined;
      /** Whether an effect's path may be a folder the call moves or removes as a whole. */
      isContainer: (e: Effect) => ContainerKind | undefined;
      /** The call's arguments (tools/call and prompts/get). */
      args?: Record<string, unknown>;
      /**
       * A tool neither the table nor the exec class knows: its server receives every argument,
       * and effectgate cannot tell that they stay on this machine (secrets are looked for).
       */
      opaque?: boolean;
      /** The state a persistent shell would be left in (extractEffects). */
      shell?: { id: string; state: ShellState };
    }
  | { subject: string; error: string };

const NONE = (): ContainerKind | undefined => undefined;

/** The effects a judged request names, before canonicalisation (also used by taint on responses). */
export function requestEffects(
  policy: CompiledPolicy,
  method: string,
  params: unknown,
  setup?: CommandSetup,
): RequestEffects {
  const fallbackSubject = subjectOf(method, params);
  const shape = callShape(method, params);
  if (typeof shape === "string") return { subject: fallbackSubject, error: shape };
  if ("effects" in shape)
    return { subject: shape.subject, effects: shape.effects, execGlob: undefined, isContainer: NONE };
  const execGlob = policy.execGlob(shape.subject);
  const extraction = extractEffects(shape.subject, shape.args, execGlob !== undefined, setup);
  if (!extraction.ok) return { subject: shape.subject, error: extraction.error };
  // An effect of a parsed command says itself whether it is a whole folder; the rest are read the
  // old way. That reading lexes the command again, so it is made only when an effect needs it.
  let legacy: ((e: Effect) => ContainerKind | undefined) | undefined;
  const isContainer = (e: Effect): ContainerKind | undefined =>
    e.via !== undefined
      ? e.via.container
      : (legacy ??= containerTest(shape.subject, shape.args, execGlob !== undefined))(e);
  const effects = withEgress(shape.subject, shape.args, extraction.effects);
  const opaque =
    method === "tools/call" && execGlob === undefined && knownTool(shape.subject, shape.args) === undefined;
  const out: RequestEffects = {
    subject: shape.subject,
    effects,
    execGlob,
    isContainer,
    args: shape.args,
    opaque,
  };
  if (extraction.shell !== undefined) out.shell = extraction.shell;
  return out;
}
