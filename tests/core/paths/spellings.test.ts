import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { PathPattern, PathResolver, PlatformProfile } from "../../../src/core/paths/api.js";
import { canonicalise, LEXICAL_ONLY } from "../../../src/core/paths/canonical.js";
import { foldName } from "../../../src/core/paths/fold.js";
import { compilePathPattern } from "../../../src/core/paths/pattern.js";
import { DARWIN, LINUX, shortNameResolver, WIN32 } from "../../helpers/profiles.js";
import { spell, type Target } from "../../helpers/spellings.js";

// Property: every spelling of a protected path canonicalises to the same path as its plain
// spelling and meets exactly the same patterns, on each platform's rules.

function patterns(profile: PlatformProfile, bodies: string[]): PathPattern[] {
  return bodies.map((b) => {
    const c = compilePathPattern(b, profile);
    if (!c.ok) throw new Error(`${b}: ${c.expected}`);
    return c.pattern;
  });
}

function resolvedOf(input: string, profile: PlatformProfile, resolver: PathResolver): string {
  const c = canonicalise(input, profile, resolver);
  if (!c.ok) throw new Error(`${JSON.stringify(input)} refused: ${c.error}`);
  return c.resolved;
}

interface Case {
  profile: PlatformProfile;
  plain: (t: Target) => string;
  targets: Target[];
  bodies: string[];
  resolver: PathResolver;
  shortNames?: Record<string, string>;
}

const CASES: Record<string, Case> = {
  linux: {
    profile: LINUX,
    plain: (t) => "/" + t.absolute.join("/"),
    resolver: LEXICAL_ONLY,
    bodies: ["~/.ssh/**", "~/.aws/**", "~/.bashrc", "**/.env", "**/.git/hooks/**", "/tmp/**", "**/*.pem"],
    targets: [
      { underHome: [".ssh", "id_rsa"], absolute: ["home", "u", ".ssh", "id_rsa"] },
      { underHome: [".aws", "credentials"], absolute: ["home", "u", ".aws", "credentials"] },
      { underHome: [".bashrc"], absolute: ["home", "u", ".bashrc"] },
      { underHome: ["code", "app", ".env"], absolute: ["home", "u", "code", "app", ".env"] },
      { absolute: ["srv", "project", ".git", "hooks", "pre-commit"] },
      { absolute: ["etc", "ssl", "server.pem"] },
    ],
  },
  darwin: {
    profile: DARWIN,
    plain: (t) => "/" + t.absolute.join("/"),
    resolver: LEXICAL_ONLY,
    bodies: [
      "~/.ssh/**",
      "~/Documents/caf\u00e9/**",
      "~/Library/Application Support/Claude/**",
      "**/.env",
      "**/.git/hooks/**",
    ],
    targets: [
      { underHome: [".ssh", "id_ed25519"], absolute: ["Users", "u", ".ssh", "id_ed25519"] },
      {
        underHome: ["Documents", "caf\u00e9", "r\u00e9sum\u00e9.txt"],
        absolute: ["Users", "u", "Documents", "caf\u00e9", "r\u00e9sum\u00e9.txt"],
      },
      {
        underHome: ["Library", "Application Support", "Claude", "claude_desktop_config.json"],
        absolute: ["Users", "u", "Library", "Application Support", "Claude", "claude_desktop_config.json"],
      },
      { absolute: ["private", "tmp", "r", ".git", "hooks", "post-checkout"] },
      { absolute: ["Users", "u", "Projects", "app", ".env"], underHome: ["Projects", "app", ".env"] },
    ],
  },
  win32: {
    profile: WIN32,
    plain: (t) => "C:\\" + t.absolute.join("\\"),
    resolver: shortNameResolver({ "PROGRA~1": "Program Files", "APPDAT~1": "AppData", "CLAUDE~1": "Claude" }),
    shortNames: { "Program Files": "PROGRA~1", AppData: "APPDAT~1", Claude: "CLAUDE~1" },
    bodies: [
      "~/.ssh/**",
      "%APPDATA%\\Claude\\**",
      "C:\\Program Files\\App\\**",
      "**/.env",
      "**/.git/hooks/**",
      "~\\.bashrc",
    ],
    targets: [
      { underHome: [".ssh", "id_rsa"], absolute: ["Users", "u", ".ssh", "id_rsa"] },
      {
        underHome: ["AppData", "Roaming", "Claude", "claude_desktop_config.json"],
        absolute: ["Users", "u", "AppData", "Roaming", "Claude", "claude_desktop_config.json"],
      },
      { absolute: ["Program Files", "App", "config.ini"] },
      { underHome: ["src", ".env"], absolute: ["Users", "u", "src", ".env"] },
      { absolute: ["src", "app", ".git", "hooks", "pre-commit"] },
      { underHome: [".bashrc"], absolute: ["Users", "u", ".bashrc"] },
    ],
  },
};

describe.each(Object.entries(CASES))("every spelling on %s", (_name, c) => {
  const pats = patterns(c.profile, c.bodies);

  it("canonicalises like the plain path and meets the same patterns", () => {
    fc.assert(
      fc.property(fc.nat({ max: c.targets.length - 1 }), fc.gen(), (ti, g) => {
        const target = c.targets[ti] as Target;
        const plain = resolvedOf(c.plain(target), c.profile, c.resolver);
        const spelled = spell(g, c.profile, target, c.shortNames);
        const got = resolvedOf(spelled, c.profile, c.resolver);
        expect(foldName(got, c.profile.platform), spelled).toBe(foldName(plain, c.profile.platform));
        const want = pats.map((p) => p.test(plain));
        expect(want.some(Boolean), `plain ${plain} meets a pattern`).toBe(true);
        expect(
          pats.map((p) => p.test(got)),
          spelled,
        ).toEqual(want);
      }),
      { numRuns: 600 },
    );
  });
});

describe("linux never folds case", () => {
  it("a case variant of a protected path is a different path and misses the anchored rule", () => {
    const [ssh] = patterns(LINUX, ["~/.ssh/**"]) as [PathPattern];
    const [env] = patterns(LINUX, ["**/.env"]) as [PathPattern];
    const target: Target = { underHome: [".ssh", "id_rsa"], absolute: ["home", "u", ".ssh", "id_rsa"] };
    fc.assert(
      fc.property(fc.gen(), fc.nat({ max: 2 }), (g, which) => {
        const spelled = spell(g, LINUX, target);
        // Upper-case ".ssh" wherever it is spelled (every form spells it literally, or encoded in a URI).
        const flipped = spelled.replace(
          /\.(s|%73)(s|%73)(h|%68)/gi,
          [".SSH", ".Ssh", ".sSH"][which] as string,
        );
        fc.pre(flipped !== spelled);
        const got = resolvedOf(flipped, LINUX, LEXICAL_ONLY);
        expect(got).not.toBe("/home/u/.ssh/id_rsa");
        expect(ssh.test(got), flipped).toBe(false);
      }),
      { numRuns: 300 },
    );
    expect(env.test("/srv/.ENV")).toBe(false);
    expect(env.test("/srv/.env")).toBe(true);
  });
});
