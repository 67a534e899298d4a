import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import type { PlatformProfile } from "../../src/core/paths/api.js";
import { compilePathPattern } from "../../src/core/paths/pattern.js";
import type { PathList } from "../../src/core/policy/api.js";
import { DEFAULT_POLICY_PATH } from "../../src/config/default-policy.js";
import { readPolicy } from "../../src/config/policy-file.js";
import { PROFILES, useTempHome } from "../helpers/policy.js";

useTempHome();

type Os = keyof typeof PROFILES;
const ALL: readonly Os[] = ["linux", "darwin", "win32"];

/** `~/a/b` in the profile's own spelling. */
function at(profile: PlatformProfile, p: string): string {
  const full = p.startsWith("~/") ? `${profile.home}/${p.slice(2)}` : p;
  return profile.platform === "win32" ? full.replace(/\//g, "\\") : full;
}

// [list, path, the first pattern of that list expected to match (undefined: none), systems]
type Row = [PathList, string, string | undefined, Os[]?];
const rows: Row[] = [
  // keys and credentials (writes)
  ["deny", "~/.ssh/authorized_keys", "~/.ssh/**"],
  ["deny", "~/.ssh/config", "~/.ssh/**"],
  ["deny", "~/.gnupg/gpg.conf", "~/.gnupg/**"],
  ["deny", "~/.aws/config", "~/.aws/**"],
  ["deny", "~/.azure/azureProfile.json", "~/.azure/**"],
  ["deny", "~/.config/gcloud/properties", "~/.config/gcloud/**"],
  ["deny", "~/AppData/Roaming/gcloud/properties", "~/AppData/Roaming/gcloud/**", ["win32"]],
  ["deny", "~/.kube/config", "~/.kube/**"],
  ["deny", "~/.docker/config.json", "~/.docker/config.json"],
  ["deny_if_tainted", "~/proj/.env", "**/.env"],
  ["deny_if_tainted", "~/proj/api/.env.production", "**/.env.*"],
  ["deny_if_tainted", "~/proj/.env.local", "**/.env.*"],
  ["deny", "~/proj/.env", undefined],
  ["deny", "~/proj/.npmrc", "**/.npmrc"],
  ["deny", "~/.pypirc", "**/.pypirc"],
  ["deny", "~/.netrc", "**/.netrc"],
  ["deny", "~/_netrc", "**/_netrc", ["win32"]],
  ["deny", "~/.git-credentials", "**/.git-credentials"],
  // agent and MCP client configs
  [
    "deny",
    "~/Library/Application Support/Claude/claude_desktop_config.json",
    "**/claude_desktop_config.json",
    ["darwin"],
  ],
  ["deny", "~/AppData/Roaming/Claude/claude_desktop_config.json", "**/claude_desktop_config.json", ["win32"]],
  [
    "deny",
    "~/AppData/Local/Packages/Claude_pzs8sxrjxfjjc/LocalCache/Roaming/Claude/claude_desktop_config.json",
    "**/claude_desktop_config.json",
    ["win32"],
  ],
  ["deny", "~/.config/Claude/claude_desktop_config.json", "**/claude_desktop_config.json", ["linux"]],
  ["deny", "~/.claude.json", "~/.claude.json"],
  ["deny", "~/.claude/settings.json", "~/.claude/**"],
  ["deny", "~/proj/.claude/settings.json", "**/.claude/settings.json"],
  ["deny", "~/proj/.claude/settings.local.json", "**/.claude/settings.local.json"],
  ["deny", "~/proj/.mcp.json", "**/.mcp.json"],
  ["deny", "~/proj/.vscode/mcp.json", "**/mcp.json"],
  ["deny", "~/.cursor/mcp.json", "**/mcp.json"],
  ["deny", "~/proj/.cursor/rules/style.mdc", "**/.cursor/**"],
  ["deny", "~/.config/Code/User/mcp.json", "**/mcp.json", ["linux"]],
  ["deny", "~/Library/Application Support/Code/User/settings.json", "**/Code/User/settings.json", ["darwin"]],
  ["deny", "~/AppData/Roaming/Code/User/settings.json", "**/Code/User/settings.json", ["win32"]],
  [
    "deny",
    "~/.config/Code/User/profiles/1a2b/settings.json",
    "**/Code/User/profiles/*/settings.json",
    ["linux"],
  ],
  ["deny", "~/proj/.vscode/settings.json", "**/.vscode/settings.json"],
  ["deny", "~/.codeium/windsurf/mcp_config.json", "**/.codeium/**"],
  ["deny", "~/.codeium/mcp_config.json", "**/.codeium/**"],
  ["deny", "~/.codex/config.toml", "~/.codex/**"],
  ["deny", "~/proj/.codex/config.toml", "**/.codex/config.toml"],
  ["deny", "~/.gemini/settings.json", "**/.gemini/settings.json"],
  ["deny", "/etc/gemini-cli/settings.json", "**/gemini-cli/settings.json", ["linux"]],
  ["deny", "/Library/Application Support/GeminiCli/settings.json", "**/GeminiCli/settings.json", ["darwin"]],
  ["deny", "~/.config/zed/settings.json", "**/zed/settings.json", ["linux", "darwin"]],
  ["deny", "~/AppData/Roaming/Zed/settings.json", "**/zed/settings.json", ["win32"]],
  ["deny", "~/proj/.zed/settings.json", "**/.zed/settings.json"],
  [
    "deny",
    "~/.config/Code/User/globalStorage/saoudrizwan.claude-dev/settings/cline_mcp_settings.json",
    "**/cline_mcp_settings.json",
  ],
  ["deny", "~/.continue/config.yaml", "**/.continue/**"],
  ["deny", "~/proj/.continue/mcpServers/db.yaml", "**/.continue/**"],
  ["deny", "~/proj/opencode.json", "**/opencode.json"],
  ["deny", "~/proj/opencode.jsonc", "**/opencode.jsonc"],
  // git
  ["deny", "~/proj/.git/hooks/pre-commit", "**/.git/hooks/**"],
  ["deny", "~/proj/.git/config", "**/.git/config"],
  ["deny", "~/.gitconfig", "~/.gitconfig"],
  // shell startup
  ["deny", "~/.bashrc", "~/.bashrc"],
  ["deny", "~/.bash_login", "~/.bash_login"],
  ["deny", "~/.profile", "~/.profile"],
  ["deny", "~/.zshrc", "~/.zshrc"],
  ["deny", "~/.zprofile", "~/.zprofile"],
  ["deny", "~/.zshenv", "~/.zshenv"],
  ["deny", "~/.config/fish/config.fish", "~/.config/fish/**"],
  ["deny", "~/Documents/PowerShell/Microsoft.PowerShell_profile.ps1", "**/*profile.ps1", ["win32"]],
  ["deny", "~/Documents/WindowsPowerShell/profile.ps1", "**/*profile.ps1", ["win32"]],
  ["deny", "~/.config/powershell/Microsoft.PowerShell_profile.ps1", "~/.config/powershell/**", ["linux"]],
  // autostart
  ["deny", "~/.config/systemd/user/sync.service", "~/.config/systemd/user/**"],
  ["deny", "~/.config/autostart/x.desktop", "~/.config/autostart/**"],
  ["deny", "~/Library/LaunchAgents/com.x.plist", "**/Library/LaunchAgents/**", ["darwin"]],
  ["deny", "/Library/LaunchDaemons/com.x.plist", "**/Library/LaunchDaemons/**", ["darwin"]],
  ["deny", "/var/spool/cron/crontabs/ada", "**/var/spool/cron/**", ["linux"]],
  ["deny", "/etc/crontab", "**/etc/crontab", ["linux"]],
  ["deny", "/etc/cron.d/backup", "**/etc/cron.d/**", ["linux"]],
  [
    "deny",
    "~/AppData/Roaming/Microsoft/Windows/Start Menu/Programs/Startup/x.lnk",
    "**/Start Menu/Programs/Startup/**",
    ["win32"],
  ],
  [
    "deny",
    "C:/ProgramData/Microsoft/Windows/Start Menu/Programs/StartUp/x.bat",
    "**/Start Menu/Programs/Startup/**",
    ["win32"],
  ],
  // package managers: an index or channel swap, or a program the tool runs
  ["deny", "~/.config/pip/pip.conf", "**/pip.conf", ["linux"]],
  ["deny", "~/Library/Application Support/pip/pip.conf", "**/pip.conf", ["darwin"]],
  ["deny", "~/AppData/Roaming/pip/pip.ini", "**/pip.ini", ["win32"]],
  ["deny", "C:/ProgramData/pip/pip.ini", "**/pip.ini", ["win32"]],
  ["deny", "~/.pydistutils.cfg", "~/.pydistutils.cfg"],
  ["deny", "~/.conda/.condarc", "**/.condarc"],
  ["deny", "~/proj/.yarnrc", "**/.yarnrc"],
  ["deny", "~/proj/.yarnrc.yml", "**/.yarnrc.yml"],
  ["deny", "~/.gemrc", "~/.gemrc"],
  ["deny", "~/proj/.cargo/config.toml", "**/.cargo/config.toml"],
  ["deny", "~/.cargo/bin/cargo", "~/.cargo/bin/**"],
  ["deny", "~/.m2/settings.xml", "~/.m2/settings.xml"],
  ["deny", "~/proj/pip.conf.md", undefined],
  // effectgate itself
  ["deny", "~/.effectgate/sessions/a.jsonl", "**/.effectgate/**"],
  ["deny", "~/proj/effectgate.lock", "**/effectgate.lock"],
  ["deny", "~/proj/.effectgate/allow.yaml", "**/.effectgate/**"], // "always allow" answers (0134)
  ["deny", "~/proj/effectgate.policy.yaml", "**/effectgate*.yaml"],
  // ordinary work is not denied
  ["deny", "~/proj/src/index.ts", undefined],
  ["deny", "~/.ssh-backup/notes.txt", undefined],
  ["deny", "~/proj/docs/mcp.json.md", undefined],
  ["deny", "~/proj/package.json", undefined],
  // confirm
  ["confirm_if_tainted", "~/proj/package.json", "**/package.json"],
  ["confirm_if_tainted", "~/proj/pyproject.toml", "**/pyproject.toml"],
  ["confirm_if_tainted", "~/proj/Cargo.toml", "**/Cargo.toml"],
  ["confirm_if_tainted", "~/proj/go.mod", "**/go.mod"],
  ["confirm", "~/proj/.github/workflows/ci.yml", "**/.github/workflows/**"],
  ["confirm", "~/proj/.gitlab-ci.yml", "**/.gitlab-ci.yml"],
  ["confirm", "~/proj/AGENTS.md", "**/AGENTS.md"],
  ["confirm", "~/proj/CLAUDE.md", "**/CLAUDE.md"],
  ["confirm", "~/proj/.cursorrules", "**/.cursorrules"],
  ["confirm", "~/proj/.github/copilot-instructions.md", "**/.github/copilot-instructions.md"],
  ["confirm", "~/proj/.windsurfrules", "**/.windsurfrules"],
  ["confirm", "~/proj/src/main.rs", undefined],
  ["confirm", "~/proj/package-lock.json", undefined],
  // confirm_if_tainted
  ["confirm_if_tainted", "~/proj/Makefile", "**/Makefile"],
  ["confirm_if_tainted", "~/proj/scripts/build.sh", "**/*.sh"],
  ["confirm_if_tainted", "~/proj/tools/setup.ps1", "**/*.ps1"],
  ["confirm_if_tainted", "~/proj/run.bat", "**/*.bat"],
  ["confirm_if_tainted", "~/proj/run.cmd", "**/*.cmd"],
  ["confirm_if_tainted", "~/proj/README.md", undefined],
  // deny_read
  ["deny_read", "~/.ssh/id_ed25519", "~/.ssh/**"],
  ["deny_read", "~/.ssh/work-github", "~/.ssh/**"],
  ["deny_read", "~/keys/ec2-prod.pem", "**/*.pem"],
  ["deny_read", "~/proj/certs/server.key", "**/*.key"],
  ["deny_read", "~/.aws/credentials", "~/.aws/**"],
  ["deny_read", "~/.config/gcloud/application_default_credentials.json", "~/.config/gcloud/**"],
  ["deny_read", "~/.docker/config.json", "~/.docker/config.json"],
  ["deny_read", "~/.kube/config", "~/.kube/**"],
  ["deny_read", "~/proj/.env", "**/.env"],
  ["deny_read", "~/proj/.env.local", "**/.env.local"],
  ["deny_read", "~/proj/.env.production.local", "**/.env.*.local"],
  ["deny_read", "~/.npmrc", "**/.npmrc"],
  ["deny_read", "~/.pypirc", "**/.pypirc"],
  ["deny_read", "~/.netrc", "**/.netrc"],
  ["deny_read", "~/.git-credentials", "**/.git-credentials"],
  ["deny_read", "~/.claude.json", "~/.claude.json"],
  ["deny_read", "~/.codex/auth.json", "~/.codex/auth.json"],
  ["deny_read", "~/.config/gh/hosts.yml", "~/.config/gh/hosts.yml"],
  // system password hashes (issue 22: `curl -d @/etc/shadow` sent them out), near misses readable
  ["deny_read", "/etc/shadow", "**/etc/shadow", ["linux", "darwin"]],
  ["deny_read", "/etc/shadow-", "**/etc/shadow-", ["linux", "darwin"]],
  ["deny_read", "/etc/gshadow", "**/etc/gshadow", ["linux", "darwin"]],
  ["deny_read", "/srv/rootfs/etc/shadow", "**/etc/shadow", ["linux", "darwin"]],
  ["deny_read", "/etc/master.passwd", "**/etc/master.passwd", ["linux", "darwin"]],
  ["deny_read", "/etc/security/passwd", "**/etc/security/passwd", ["linux", "darwin"]],
  ["deny_read", "/etc/passwd", undefined, ["linux", "darwin"]],
  ["deny_read", "/etc/shadow.d/notes", undefined, ["linux", "darwin"]],
  ["deny_read", "~/proj/docs/shadow", undefined],
  ["deny_read", "~/proj/.env.example", undefined],
  ["deny_read", "~/proj/src/app.ts", undefined],
  ["deny_read", "~/.gitconfig", undefined],
  ["deny_read", "~/proj/package.json", undefined],
];

describe("the default policy", () => {
  const policies = Object.fromEntries(ALL.map((os) => [os, readPolicy(undefined, PROFILES[os])]));

  it("loads on all three profiles, with no pattern inert, in observe mode", () => {
    for (const os of ALL) {
      const p = policies[os]!;
      expect(p.source).toBe("default");
      expect(p.mode).toBe("observe");
      expect(p.inert).toEqual([]);
      expect(p.sha256).toMatch(/^[0-9a-f]{64}$/);
    }
  });

  for (const [list, path, expected, systems] of rows) {
    for (const os of systems ?? ALL) {
      it(`${list} ${expected ?? "(none)"} ← ${path} on ${os}`, () => {
        expect(policies[os]!.matchPath(list, at(PROFILES[os], path))).toBe(expected);
      });
    }
  }

  it("folds case where the file system does (win32, darwin) and nowhere else", () => {
    expect(policies.win32!.matchPath("deny", "C:\\USERS\\ADA\\.SSH\\authorized_keys")).toBe("~/.ssh/**");
    expect(policies.darwin!.matchPath("deny", "/Users/ada/.SSH/config")).toBe("~/.ssh/**");
    expect(policies.linux!.matchPath("deny", "/home/ada/.SSH/config")).toBeUndefined();
    expect(policies.win32!.matchPath("deny_if_tainted", "C:\\Users\\ada\\Proj\\.ENV")).toBe("**/.env");
  });
});

describe("every entry of the default", () => {
  const text = readFileSync(DEFAULT_POLICY_PATH, "utf8");
  const items = [...text.matchAll(/^\s+- "([^"]+)"(.*)$/gm)];

  it("carries a one-line comment saying what it stops", () => {
    expect(items.length).toBeGreaterThan(150);
    const bare = items.filter((m) => !/#\s*\S+(\s+\S+){2,}/.test(m[2] ?? "")).map((m) => m[1]);
    expect(bare).toEqual([]);
  });

  it("matches a plain instance of itself on every profile (no pattern is dead)", () => {
    // Build the most ordinary path each pattern describes, and ask the pattern itself.
    const paths = [
      ...text.matchAll(/^ {2}(deny|deny_if_tainted|confirm|confirm_if_tainted|deny_read):\n((?:\s+(?:- .*|#.*)\n)+)/gm),
    ];
    expect(paths.map((m) => m[1])).toEqual(["deny", "deny_if_tainted", "confirm", "confirm_if_tainted", "deny_read"]);
    const dead: string[] = [];
    for (const os of ALL) {
      const profile = PROFILES[os];
      for (const m of text.matchAll(/^\s+- "((?:~|\*\*)\/[^"]+)"/gm)) {
        const body = m[1] as string;
        const sample = body
          .replace(/^\*\*\//, "~/proj/")
          .replace(/\/\*\*$/, "/inner/file")
          .replace(/\*/g, "sample");
        const compiled = compilePathPattern(body, profile);
        if (!compiled.ok || !compiled.pattern.test(at(profile, sample)))
          dead.push(`${os}: ${body} (${sample})`);
      }
    }
    expect(dead).toEqual([]);
  });
});
