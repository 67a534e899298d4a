import { realpathSync } from "node:fs";
import { dirname, join } from "node:path";
import { LEXICAL_ONLY } from "../../src/core/paths/canonical.js";
import type { PathResolver, PlatformProfile } from "../../src/core/paths/api.js";
import { loadPolicy } from "../../src/core/policy/load.js";
import { createSessionJudge, type SessionJudge } from "../../src/core/judge/session.js";
import type { CompiledPolicy, ShellKit } from "../../src/core/policy/api.js";

/** A small policy in the shape of the default, so engine tests do not depend on its exact lists. */
export const TEST_POLICY = `version: 1
paths:
  deny: ["~/.ssh/**", "~/.aws/**", "**/.env", "**/mcp.json", "~/.bashrc", "**/.git/hooks/**"]
  confirm: ["**/package.json", "**/.git/config"]
  confirm_if_tainted: ["**/Makefile", "**/*.sh", "~/.gitconfig"]
  deny_read: ["~/.ssh/id_rsa", "~/.aws/credentials", "**/.env"]
exec:
  tools: ["*exec*", "*shell*", "*command*", "bash", "run_*"]
  action: confirm
  action_if_tainted: deny
taint:
  sources: ["*fetch*", "*web*", "*search*"]
  exclude: ["search_files"]
  servers: ["browser*"]
  signatures: true
`;

export const PROFILE: PlatformProfile = {
  platform: "linux",
  home: "/home/user",
  env: { HOME: "/home/user" },
  cwd: "/home/user/project",
};

export function policyOf(text = TEST_POLICY, profile: PlatformProfile = PROFILE): CompiledPolicy {
  return loadPolicy(text, "test-policy.yaml", "0".repeat(64), profile);
}

export function judgeOf(
  opts: {
    text?: string;
    profile?: PlatformProfile;
    resolver?: PathResolver;
    tainted?: boolean;
    server?: string;
    bases?: string[];
    /** The bash grammar and catalogue (tests/helpers/commands.ts): commands judged by their programs. */
    shell?: ShellKit;
  } = {},
): SessionJudge {
  const profile = opts.profile ?? PROFILE;
  const kit = opts.shell;
  const env = {
    profile,
    resolver: opts.resolver ?? LEXICAL_ONLY,
    ...(kit === undefined ? {} : { shell: () => kit }),
    ...(opts.server ? { server: opts.server } : {}),
    ...(opts.bases ? { bases: opts.bases } : {}),
  };
  return createSessionJudge(policyOf(opts.text, profile), env, { tainted: opts.tainted ?? false });
}

export const call = (name: string, args: Record<string, unknown>) => ({ name, arguments: args });

/** A resolver over the real file system, for symlink tests in temp folders. */
export const realResolver: PathResolver = {
  realpath(absolute: string) {
    const tail: string[] = [];
    let p = absolute;
    for (;;) {
      try {
        return join(realpathSync(p), ...tail);
      } catch {
        const parent = dirname(p);
        if (parent === p) return undefined;
        tail.unshift(p.slice(parent.length + (parent.endsWith("/") ? 0 : 1)));
        p = parent;
      }
    }
  },
};
