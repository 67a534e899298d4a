// Pure planning: given a config file's text, decide per server what install or uninstall does,
// produce the new text, and check that it parses to exactly the intended document.
import { isDeepStrictEqual } from "node:util";
import { canonicalHash } from "../core/json/jcs.js";
import { jsonEditor } from "./editors/json.js";
import { tomlEditor } from "./editors/toml.js";
import { applyTextEdits, type Edit, type Editor } from "./editors/view.js";
import { type Edited, rewrapEdits, unwrapEdits, wrapEdits } from "./edits.js";
import { parseConfig, stripBom } from "./parse.js";
import { isObject } from "./registry/common.js";
import { type Launcher, recognise, rewrapPrefix, type WrapFlags, wrapArgv } from "./relay-argv.js";
import { serversOf } from "./servers.js";
import type { ClientSpec, ConfigFile, Format, ServerDecl } from "./types.js";
import { yamlEditor } from "./editors/yaml.js";

/** `flags.name` is not used: install names each server after its own key (nameFor). */
export type Mode = { kind: "install"; launcher: Launcher; flags: WrapFlags } | { kind: "uninstall" };

export interface ServerAction {
  name: string;
  /** rewrap: already wrapped, but its launcher or the options this install was given differ. */
  action: "wrap" | "rewrap" | "unwrap" | "skip";
  reason?: string;
  before?: string[];
  after?: string[];
  /** A remote server: effectgate cannot see its traffic. */
  unguarded?: boolean;
}

/** A declaration whose original had an explicit empty args list (see memos.ts). */
export interface PlanMemo {
  at: (string | number)[];
  /** canonicalHash of the wrapped argv install wrote. */
  argvHash: string;
}

export interface FilePlan {
  file: ConfigFile;
  text: string;
  /** Present only when the file changes. */
  newText?: string;
  actions: ServerAction[];
  /** The file is left alone, with this reason. */
  error?: string;
  /** install: memos to keep once written; uninstall: memos used, to drop once written. */
  memos: PlanMemo[];
}

function editorFor(format: Format): Editor {
  return format === "toml" ? tomlEditor : format === "yaml" ? yamlEditor : jsonEditor;
}

function entryAt(doc: unknown, at: (string | number)[]): Record<string, unknown> | undefined {
  let cur: unknown = doc;
  for (const k of at)
    cur = Array.isArray(cur) ? cur[k as number] : isObject(cur) ? cur[k as string] : undefined;
  return isObject(cur) ? cur : undefined;
}

export function planFile(
  spec: ClientSpec,
  file: ConfigFile,
  text: string,
  mode: Mode,
  knownMains: readonly string[],
  memos: readonly PlanMemo[] = [],
): FilePlan {
  const plan: FilePlan = { file, text, actions: [], memos: [] };
  const parsed = parseConfig(text, file.format);
  if (!parsed.ok) return { ...plan, error: `does not parse (${parsed.error}); left alone` };
  const { bom, body } = stripBom(text);
  const editor = editorFor(file.format);
  // Through JSON so that TOML's null-prototype tables and dates compare as plain data.
  const plain = (v: unknown): unknown => JSON.parse(JSON.stringify(v)) as unknown;
  const expected = plain(parsed.value);
  const edits: Edit[] = [];

  for (const decl of serversOf(spec, file, parsed.value)) {
    const memo = memos.find(
      (m) => isDeepStrictEqual(m.at, decl.at) && decl.argv && m.argvHash === canonicalHash(decl.argv),
    );
    const act = planServer(spec, file, decl, mode, knownMains, body, editor, memo !== undefined);
    plan.actions.push(act.action);
    if (!act.edited || !act.action.after) continue;
    if (act.edited.emptyArgsKept && memo) plan.memos.push(memo);
    // A rewritten prefix changes the wrapped argv the memo is matched on: carry it over.
    if (act.action.action === "rewrap" && memo)
      plan.memos.push({ at: decl.at, argvHash: canonicalHash(act.action.after) });
    if (act.edited.emptyArgs) plan.memos.push({ at: decl.at, argvHash: canonicalHash(act.action.after) });
    edits.push(...act.edited.edits);
    const entry = entryAt(expected, decl.at);
    if (!entry) continue;
    const after = act.action.after;
    if (spec.commandStyle === "argv-array") entry.command = after;
    else {
      entry.command = after[0];
      if (act.edited.argsRemoved) delete entry.args;
      else entry.args = after.slice(1);
    }
  }
  if (edits.length === 0) return plan;
  const leftAlone = (error: string): FilePlan => ({
    ...holdPlan(plan, "the file is left alone"),
    error,
  });

  let newBody: string;
  try {
    newBody = applyTextEdits(body, edits);
  } catch (err) {
    return leftAlone(`cannot edit (${(err as Error).message}); left alone`);
  }
  const check = parseConfig(newBody, file.format);
  if (!check.ok || !isDeepStrictEqual(plain(check.value), expected)) {
    return leftAlone("the edited text did not parse to the intended servers; left alone");
  }
  return { ...plan, newText: bom + newBody };
}

/** The same plan, written nowhere: each wrap/unwrap becomes a skip that says what it would do. */
export function holdPlan(plan: FilePlan, why: string): FilePlan {
  const { newText: _dropped, ...rest } = plan;
  return {
    ...rest,
    memos: [],
    actions: plan.actions.map((a) =>
      a.action === "skip" ? a : { name: a.name, action: "skip", reason: `would ${a.action}, but ${why}` },
    ),
  };
}

function planServer(
  spec: ClientSpec,
  file: ConfigFile,
  decl: ServerDecl,
  mode: Mode,
  knownMains: readonly string[],
  body: string,
  editor: Editor,
  hadEmptyArgs: boolean,
): { action: ServerAction; edited?: Edited } {
  const name = decl.name;
  if (decl.kind === "remote") {
    return {
      action: {
        name,
        action: "skip",
        unguarded: true,
        reason: `remote server ${decl.url ?? decl.type ?? ""} is UNGUARDED: effectgate cannot wrap HTTP/SSE servers`,
      },
    };
  }
  if (decl.kind === "invalid" || !decl.argv)
    return { action: { name, action: "skip", reason: decl.problem ?? "not a server declaration" } };
  if (file.readOnly !== undefined) return { action: { name, action: "skip", reason: file.readOnly } };
  const r = recognise(decl.argv, knownMains);
  if (r.wrapped === "malformed") return { action: { name, action: "skip", reason: `${r.why}; left alone` } };
  const before = decl.argv;
  const view = editor.locate(body, decl.at);
  if (mode.kind === "install") {
    const flags = { ...mode.flags, name: nameFor(decl) };
    if (r.wrapped) {
      // In a project's own file a foreign launcher's options are the repository's, not the user's.
      const re = rewrapPrefix(before, r, mode.launcher, flags, file.scope === "project");
      if (!re) return { action: { name, action: "skip", reason: "already wrapped by effectgate" } };
      if (typeof view === "string")
        return { action: { name, action: "skip", reason: `cannot edit: ${view}` } };
      const edited = rewrapEdits(view, spec.commandStyle, editor, r.dash, re.prefix);
      if (typeof edited === "string")
        return { action: { name, action: "skip", reason: `cannot edit: ${edited}` } };
      const after = [...re.prefix.map((w) => w.value), ...before.slice(r.dash)];
      return { action: { name, action: "rewrap", reason: re.changes.join("; "), before, after }, edited };
    }
    if (typeof view === "string") return { action: { name, action: "skip", reason: `cannot edit: ${view}` } };
    const after = wrapArgv(mode.launcher, flags, before);
    const prefix = after.slice(0, after.length - before.length);
    const edited = wrapEdits(view, spec.commandStyle, editor, prefix, body);
    if (typeof edited === "string")
      return { action: { name, action: "skip", reason: `cannot edit: ${edited}` } };
    return { action: { name, action: "wrap", before, after }, edited };
  }
  if (!r.wrapped) return { action: { name, action: "skip", reason: "not wrapped" } };
  if (typeof view === "string") return { action: { name, action: "skip", reason: `cannot edit: ${view}` } };
  const edited = unwrapEdits(view, spec.commandStyle, body, r.dash, hadEmptyArgs);
  if (typeof edited === "string")
    return { action: { name, action: "skip", reason: `cannot edit: ${edited}` } };
  return { action: { name, action: "unwrap", before, after: r.inner }, edited };
}

/** The server's own name for `--name`, when the relay can take it: it refuses `--name --`, and an
 *  empty name is no name (core/pins/identity.ts). */
function nameFor(decl: ServerDecl): string | undefined {
  const key = decl.key;
  return key === undefined || key === "" || key === "--" ? undefined : key;
}
