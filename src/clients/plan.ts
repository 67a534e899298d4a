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
import { declarationText, unwrapRemote, wrapRemote } from "./remote-wrap.js";
import { textHash } from "./remote-words.js";
import { serversOf } from "./servers.js";
import type { ClientSpec, ConfigFile, Format, ServerDecl } from "./types.js";
import { yamlEditor } from "./editors/yaml.js";

/**
 * `flags.name` is not used: install names each server after its own key (nameFor). `remote`:
 * wrap remote servers too (`install --remote`, decision 0101).
 */
export type Mode =
  { kind: "install"; launcher: Launcher; flags: WrapFlags; remote?: boolean } | { kind: "uninstall" };

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

/**
 * A fact install remembers about a declaration (memos.ts): its original had an explicit empty
 * args list, or (`remote`) it was a remote server, whose original text uninstall puts back.
 */
export interface PlanMemo {
  at: (string | number)[];
  /** canonicalHash of the wrapped argv install wrote. */
  argvHash: string;
  remote?: { original: string; wroteHash: string };
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

/** Puts `value` at `at` inside `doc` (the planner's expected document). */
function setAt(doc: unknown, at: (string | number)[], value: unknown): void {
  let cur: unknown = doc;
  for (const k of at.slice(0, -1))
    cur = Array.isArray(cur) ? cur[k as number] : isObject(cur) ? cur[k as string] : undefined;
  const last = at[at.length - 1];
  if (Array.isArray(cur) && typeof last === "number") cur[last] = value;
  else if (isObject(cur) && typeof last === "string") cur[last] = value;
}

/**
 * A remote server at install (wrapped only with `--remote`), or one install
 * wrapped as remote at uninstall (put back from its memo). Undefined: not this function's case.
 */
function planRemote(
  spec: ClientSpec,
  file: ConfigFile,
  decl: ServerDecl,
  mode: Mode,
  knownMains: readonly string[],
  body: string,
  doc: unknown,
  memo: PlanMemo | undefined,
): { action: ServerAction; edits?: Edit[]; entry?: unknown; memo?: PlanMemo } | undefined {
  const name = decl.name;
  if (decl.kind === "remote") {
    const unguarded = (why: string): { action: ServerAction } => ({
      action: {
        name,
        action: "skip",
        unguarded: true,
        reason: `remote server ${decl.url ?? decl.type ?? ""} is UNGUARDED: ${why}`,
      },
    });
    if (mode.kind !== "install" || !mode.remote)
      return mode.kind === "install"
        ? unguarded("run effectgate install --remote to guard it through effectgate --url")
        : unguarded("not wrapped");
    if (file.readOnly !== undefined) return unguarded(file.readOnly);
    const raw = entryAt(doc, decl.at);
    if (!raw) return unguarded("not a server declaration");
    const w = wrapRemote(file.format, {
      body,
      decl,
      raw,
      style: spec.commandStyle,
      launcher: mode.launcher,
      flags: { ...mode.flags, name: nameFor(decl) },
    });
    if (typeof w === "string") return unguarded(`cannot wrap it: ${w}`);
    return {
      action: { name, action: "wrap", before: w.before, after: w.after },
      edits: w.edits,
      entry: w.entry,
      memo: {
        at: decl.at,
        argvHash: canonicalHash(w.after),
        remote: { original: w.original, wroteHash: w.wroteHash },
      },
    };
  }
  if (mode.kind !== "uninstall" || !decl.argv || !memo?.remote) return undefined;
  const r = recognise(decl.argv, knownMains);
  if (r.wrapped !== true || r.url === undefined) return undefined;
  const now = declarationText(file.format, body, decl.at);
  if (now === undefined || textHash(now) !== memo.remote.wroteHash)
    return {
      action: {
        name,
        action: "skip",
        reason:
          "a remote server install wrapped, edited since; left wrapped (put its url and headers back by hand)",
      },
    };
  const u = unwrapRemote(file.format, body, decl.at, memo.remote.original);
  if (typeof u === "string") return { action: { name, action: "skip", reason: `cannot unwrap: ${u}` } };
  return {
    action: { name, action: "unwrap", before: decl.argv, after: ["--url", r.url] },
    edits: [u.edit],
    entry: u.entry,
    memo,
  };
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
    if (
      decl.kind === "remote" ||
      (decl.argv && recognise(decl.argv, knownMains).wrapped === true && memo?.remote)
    ) {
      const r = planRemote(spec, file, decl, mode, knownMains, body, parsed.value, memo);
      if (r) {
        plan.actions.push(r.action);
        if (r.edits) {
          edits.push(...r.edits);
          if (r.memo) plan.memos.push(r.memo);
          setAt(expected, decl.at, r.entry);
        }
        continue;
      }
    }
    const act = planServer(
      spec,
      file,
      decl,
      mode,
      knownMains,
      body,
      editor,
      memo !== undefined && !memo.remote,
    );
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
  // A remote server install wrapped comes back only from its memo (planRemote); without one its
  // original shape (which keys held the URL and headers) is not known here.
  if (r.url !== undefined)
    return {
      action: {
        name,
        action: "skip",
        reason: `a wrapped remote server with no install memo in this EFFECTGATE_HOME; left wrapped (its URL: ${r.url})`,
      },
    };
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
