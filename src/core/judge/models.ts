import type { ContainerKind } from "../effects/containers.js";
import { OWN_FILES_RULE } from "../gate/refusal-text.js";
import type { PlatformProfile } from "../paths/api.js";
import { gitConfigWrite } from "../paths/git-dirs.js";
import { joinPath, parsePath } from "../paths/lexical.js";
import { type OwnHit, ownFileSame, ownPathAt } from "../paths/own-paths.js";
import { type PathFolder, pathFolders, pathFolderWrite } from "../paths/path-folders.js";
import type { CompiledPolicy, JudgeEnvironment } from "../policy/api.js";
import { VERDICT_RANK } from "../types.js";
import type { JudgedEffect } from "./judge-effect.js";
import { Planted } from "./planted.js";

// Verdicts that come from a model of what reads a file, not from a pattern: effectgate's own
// files by identity (decision 0068), and what runs code later (`runs_later:`, decision 0067):
// git's configuration wherever its discovery finds it, and programs in the folders on PATH.
// Applied to every judged path of a call after the pattern lists, the strictest verdict winning.

const VERB = { read: "read", write: "write", exec: "run", send: "send to" } as const;

export interface ModelContext {
  tool: string;
  policy: CompiledPolicy;
  env: JudgeEnvironment;
  /** Paths written by calls this session let through (git-dirs.ts counts them as present). */
  planted?: Planted;
}

const folderCache = new WeakMap<PlatformProfile, PathFolder[]>();

function foldersOf(profile: PlatformProfile): PathFolder[] {
  let folders = folderCache.get(profile);
  if (folders === undefined) {
    folders = pathFolders(profile);
    folderCache.set(profile, folders);
  }
  return folders;
}

function formsOf(item: JudgedEffect): string[] {
  const forms = [item.lexical, item.resolved, item.physical].filter((f): f is string => f !== undefined);
  return [...new Set(forms)];
}

function via(item: JudgedEffect, form: string): string {
  return form === item.lexical ? "" : ` (through a link: ${item.lexical ?? item.effect.spelled})`;
}

/** The item with the effect's own files verdict, when it names one (any operation). */
function ownFiles(item: JudgedEffect, cx: ModelContext, kind: ContainerKind | undefined): JudgedEffect {
  const own = cx.env.own;
  if (own === undefined || own.length === 0) return item;
  if (item.verdict === "deny" && item.unjudgeable === undefined) return item;
  const { platform } = cx.env.profile;
  const forms = formsOf(item);
  // Every spelling first, then identity: a link to the file is reported as the link it is.
  const found = (f: (form: string) => OwnHit | undefined): [string, OwnHit] | undefined => {
    for (const form of forms) {
      const hit = f(form);
      // Reading the program files is fine; a move's read of them still moves them.
      if (
        hit !== undefined &&
        !(hit.own.readable === true && item.effect.operation === "read" && kind === undefined)
      )
        return [form, hit];
    }
    return undefined;
  };
  const match =
    found((form) => ownPathAt(form, own, platform, kind !== undefined)) ??
    found((form) => ownFileSame(form, own, cx.env.resolver));
  if (match === undefined) return item;
  const [form, hit] = match;
  const where =
    hit.how === "above"
      ? `a folder that holds ${hit.own.what} (${hit.own.path})`
      : hit.how === "same-file"
        ? `another name (a hard link) of ${hit.own.what} (${hit.own.path})`
        : hit.own.folder
          ? `inside ${hit.own.what} (${hit.own.path})`
          : `${hit.own.what}`;
  const { unjudgeable: _, ...rest } = item;
  return {
    ...rest,
    effect: { ...item.effect, canonical: form },
    verdict: "deny",
    rule: OWN_FILES_RULE,
    reason: `${cx.tool} would ${VERB[item.effect.operation]} ${form}${via(item, form)}, ${where}: effectgate's own files are never read or changed through the server it guards`,
  };
}

/** The item with the `runs_later:` verdicts, for a write. `callPlanted`: the call's other writes. */
function runsLater(
  item: JudgedEffect,
  cx: ModelContext,
  kind: ContainerKind | undefined,
  callPlanted: Planted,
): JudgedEffect {
  if (item.effect.operation !== "write") return item;
  const { gitDirs, pathFolders: onPath } = cx.policy.runsLater;
  const { profile, resolver } = cx.env;
  const forms = formsOf(item);
  // The call's other writes count as present; this one does not (it is what is being judged).
  const planted = (p: string): boolean => callPlanted.has(p, forms) || cx.planted?.has(p) === true;
  if (VERDICT_RANK[gitDirs] > VERDICT_RANK[item.verdict] && kind !== "remove") {
    for (const form of forms) {
      let hit = gitConfigWrite(form, profile.platform, { resolver, planted });
      // A folder moved into place as a whole where git keeps a git directory plants its config.
      if (hit === undefined && kind === "place") {
        const inside = childOf(form, "config", profile);
        const placed =
          inside === undefined
            ? undefined
            : gitConfigWrite(inside, profile.platform, { resolver, lexicalOnly: true });
        if (placed !== undefined)
          hit = { gitDir: form, why: `${placed.why}, and the folder placed there brings its own` };
      }
      if (hit === undefined) continue;
      return {
        ...item,
        effect: { ...item.effect, canonical: form },
        verdict: gitDirs,
        rule: "runs_later.git_dirs",
        reason: `${cx.tool} would write ${form}${via(item, form)}, which git reads as configuration or hooks: ${hit.why}`,
      };
    }
  }
  if (VERDICT_RANK[onPath] > VERDICT_RANK[item.verdict] && kind !== "remove") {
    const folders = foldersOf(profile);
    for (const form of forms) {
      const hit = pathFolderWrite(form, folders, profile, resolver, kind === "place");
      if (hit === undefined) continue;
      const what =
        hit.what === "entry"
          ? `a program in ${hit.folder.lexical}, a folder on the server's PATH (${hit.folder.entry})`
          : `the PATH folder ${hit.folder.lexical} itself, or a folder above it (${hit.folder.entry})`;
      return {
        ...item,
        effect: { ...item.effect, canonical: form },
        verdict: onPath,
        rule: "runs_later.path_folders",
        reason: `${cx.tool} would write ${form}${via(item, form)}, ${what}: what is run there by name runs this file instead`,
      };
    }
  }
  return item;
}

function childOf(folder: string, name: string, profile: PlatformProfile): string | undefined {
  const parsed = parsePath(folder, profile.platform);
  if (!parsed.ok) return undefined;
  return joinPath(parsed.parsed.root, [...parsed.parsed.segments, name], profile.platform);
}

/**
 * Every item with the models' verdicts applied, when stricter than what the item earned. `kinds`
 * says, per item, whether its path is a folder the call places or removes as a whole.
 */
export function judgeModels(
  items: readonly JudgedEffect[],
  kinds: ReadonlyArray<ContainerKind | undefined>,
  cx: ModelContext,
): JudgedEffect[] {
  const { gitDirs } = cx.policy.runsLater;
  const callPlanted = new Planted(cx.env.profile.platform);
  if (gitDirs !== "allow")
    for (const item of items)
      if (item.effect.operation === "write") for (const f of formsOf(item)) callPlanted.add(f);
  return items.map((item, i) => {
    if (item.lexical === undefined) return item; // a command, a URL, or a path with no canonical form
    const kind = kinds[i];
    return runsLater(ownFiles(item, cx, kind), cx, kind, callPlanted);
  });
}

/** Remember the written paths of a call that was let through (for git-dirs.ts). */
export function rememberWrites(items: readonly JudgedEffect[], planted: Planted): void {
  for (const item of items)
    if (item.effect.operation === "write") for (const f of formsOf(item)) planted.add(f);
}
