import { analyseCommand } from "../../src/core/commands/analyse.js";
import type { Analysis, Cwd } from "../../src/core/commands/api.js";
import { catalogueFor, scriptReader } from "../../src/core/commands/setup.js";
import { loadShellKit } from "../../src/config/shell-kit.js";
import { judgeOf, PROFILE } from "./judge.js";
import type { PlatformProfile } from "../../src/core/paths/api.js";
import { loadPolicy } from "../../src/core/policy/load.js";
import { readPolicyBytes } from "../../src/config/policy-file.js";
import { DEFAULT_POLICY_PATH } from "../../src/config/default-policy.js";
import { LEXICAL_ONLY } from "../../src/core/paths/canonical.js";
import { createSessionJudge } from "../../src/core/judge/session.js";

/** The bash grammar and the shipped catalogue, as the relay loads them. */
export const KIT = await loadShellKit();

/** The analysis of a command with the bash grammar and the shipped catalogue (no policy). */
export function analysisOf(command: string, cwds: Cwd[] = [undefined]): Analysis {
  return analyseCommand(command, {
    catalogue: catalogueFor(KIT, new Map()),
    codeVariables: KIT.variables,
    parse: scriptReader(KIT.parser),
    cwds,
  });
}

/** One effect as a short string: `class CLASS`, `url URL`, or `OPERATION PATH` as spelled. */
export function effectHead(e: Analysis["effects"][number]): string {
  return e.kind === "command"
    ? `class ${e.via.class ?? "?"}`
    : e.kind === "url"
      ? `url ${e.spelled}`
      : `${e.operation} ${e.spelled}`;
}

/**
 * What a command does, as short strings: `read PATH`, `write PATH`, `url URL`, `class CLASS`,
 * read straight from the analysis (no canonicalisation, no policy).
 */
export function commandEffects(command: string, cwds: Cwd[] = [undefined]): string[] {
  const a = analysisOf(command, cwds);
  if (a.unreadable !== undefined) return [`unreadable ${a.unreadable}`];
  return [...a.effects.map(effectHead), ...a.legacy.map((l) => `legacy ${l}`)];
}

/** A session judge of the shipped default policy, with the grammar (what the relay runs). */
export function defaultJudge(opts: { profile?: PlatformProfile; tainted?: boolean } = {}) {
  const profile = opts.profile ?? PROFILE;
  const { text, sha256 } = readPolicyBytes(DEFAULT_POLICY_PATH, DEFAULT_POLICY_PATH);
  const policy = loadPolicy(text, "default", sha256, profile);
  return createSessionJudge(
    policy,
    { profile, resolver: LEXICAL_ONLY, shell: () => KIT },
    { tainted: opts.tainted ?? false },
  );
}

/** A session judge of a test policy text, with the grammar. */
export function judgeWithShell(opts: Parameters<typeof judgeOf>[0] & { text?: string } = {}) {
  return judgeOf({ ...opts, shell: KIT });
}
