import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { join, relative } from "node:path";
import { describe, expect, it } from "vitest";

// DESIGN.md and ARCHITECTURE.md: commands → relay/log/clients/config → core; platform only at
// the edge. Inside core, the readers of bytes and JSON sit below everything that judges.
const ROOT = join(import.meta.dirname, "..", "src");

function tsFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const full = join(dir, name);
    return statSync(full).isDirectory() ? tsFiles(full) : full.endsWith(".ts") ? [full] : [];
  });
}

function importsOf(src: string): string[] {
  const found: string[] = [];
  for (const m of src.matchAll(
    /(?:import|export)\s[^'"]*?from\s*["']([^"']+)["']|import\(\s*["']([^"']+)["']\s*\)/g,
  )) {
    found.push((m[1] ?? m[2]) as string);
  }
  return found;
}

const FORBIDDEN_IN_CORE =
  /^(node:)?(fs|fs\/promises|child_process|net|http|https|os|tls|dgram|worker_threads|process)$/;

/** `core/json`, `relay`, `main.ts`: a layer, or a folder of core. */
function unitOf(pathInSrc: string): string {
  const parts = pathInSrc.split(/[\\/]/);
  const top = (parts[0] ?? "").replace(/\.js$/, ".ts");
  if (top !== "core" || parts.length < 2) return top;
  return `core/${(parts[1] ?? "").replace(/\.js$/, ".ts")}`;
}

// Which units each unit may import from (itself always). core/types.ts and core/errors.ts are
// vocabulary every unit may use.
const VOCABULARY = ["core/types.ts", "core/errors.ts"];
const CORE = [
  "core/json",
  "core/text",
  "core/process",
  "core/paths",
  "core/net",
  "core/secrets",
  "core/wire",
  "core/framing",
  "core/gate",
  "core/shell",
  "core/commands",
  "core/effects",
  "core/policy",
  "core/pins",
  "core/replay",
  "core/taint",
  "core/judge",
  "core/evaluation",
  "core/status",
  "core/remote",
];
const ALLOWED: Record<string, string[]> = {
  // Readers of bytes and JSON: nothing that judges.
  "core/json": [],
  "core/text": [],
  "core/process": [],
  "core/paths": [],
  // Hosts and addresses: read by the effects, the policy and the judge; knows none of them.
  "core/net": [],
  "core/wire": ["core/json"],
  "core/framing": ["core/json", "core/wire"],
  // The gate contract is vocabulary too: it knows no judge, only the readers (the question's
  // form and the hash a grant is bound to, decisions 0103 and 0104), and the project grant file,
  // read with the policy's YAML reader (decision 0134).
  "core/gate": ["core/json", "core/net", "core/policy", "core/text", "core/wire"],
  // The shell reader (a parsed syntax tree → words and commands) needs nothing that judges.
  "core/shell": [],
  // Programs' effects from the catalogue: the catalogue's types live with the policy.
  "core/commands": ["core/shell", "core/policy", "core/paths"],
  "core/effects": ["core/json", "core/net", "core/shell", "core/commands", "core/policy"],
  "core/policy": ["core/net", "core/paths", "core/shell"],
  // Credentials in text: formats, decodings and fingerprints; shares the taint scan's decoders.
  "core/secrets": ["core/taint"],
  "core/pins": ["core/json", "core/text"],
  // What the HTTP bridge decides without I/O: URLs, headers, addresses.
  "core/remote": [],
  // Replay names what a logged frame was with the relay's one classifier (issue 18).
  "core/replay": ["core/text", "core/wire"],
  "core/taint": ["core/gate", "core/judge", "core/net", "core/policy", "core/text"],
  "core/judge": [
    "core/commands",
    "core/effects",
    "core/gate",
    "core/net",
    "core/paths",
    "core/policy",
    "core/secrets",
    "core/taint",
  ],
  "core/evaluation": [
    "core/gate",
    "core/json",
    "core/judge",
    "core/paths",
    "core/pins",
    "core/policy",
    "core/replay",
    "core/wire",
  ],
  // status: what would have been refused, grouped, with the ways out; drawn like replay.
  "core/status": ["core/evaluation", "core/gate", "core/replay", "core/text"],
  platform: ["core/paths", "core/process", "core/shell"],
  log: ["platform"],
  clients: ["core/json", "core/remote", "platform"],
  // package-dir.ts: where the shipped files are, for any layout of the code (decision 0147).
  config: ["core/json", "core/paths", "core/pins", "core/policy", "platform", "package-dir.ts"],
  relay: [...CORE, "config", "log", "platform"],
  bench: ["core/judge", "core/paths", "core/policy"],
  commands: [...CORE, "config", "relay", "log", "clients", "platform", "version.ts", "package-dir.ts"],
  "main.ts": ["commands", "version.ts"],
  "version.ts": [],
  "package-dir.ts": [],
  "core/types.ts": [],
  "core/errors.ts": [],
};

/** The imports of `file` (a path inside src) that break ALLOWED. */
function offendersIn(file: string, src: string): string[] {
  const unit = unitOf(file);
  const allowed = ALLOWED[unit];
  if (allowed === undefined) return [`${file}: ${unit} has no rule`];
  const out: string[] = [];
  for (const spec of importsOf(src)) {
    if (!spec.startsWith(".")) continue;
    const target = unitOf(relative(ROOT, join(ROOT, file, "..", spec)));
    if (target === unit || VOCABULARY.includes(target) || allowed.includes(target)) continue;
    out.push(`${file} (${unit}) imports ${spec} (${target})`);
  }
  return out;
}

describe("layering", () => {
  const files = tsFiles(ROOT);

  it("finds the source tree, and every unit a rule names exists", () => {
    expect(files.length).toBeGreaterThan(100);
    const units = new Set(files.map((f) => unitOf(relative(ROOT, f))));
    for (const unit of [...Object.keys(ALLOWED), ...VOCABULARY]) {
      expect(existsSync(join(ROOT, unit)), unit).toBe(true);
      expect(units.has(unit), unit).toBe(true);
    }
  });

  it("flags a planted import against the direction (the check is not vacuous)", () => {
    expect(offendersIn("core/json/x.ts", 'import { a } from "../gate/gate.js";')).toHaveLength(1);
    expect(offendersIn("core/wire/x.ts", 'import { a } from "../gate/gate.js";')).toHaveLength(1);
    expect(offendersIn("core/wire/x.ts", 'import { a } from "../json/strict-json.js";')).toEqual([]);
    expect(offendersIn("log/x.ts", 'import { a } from "../relay/session/relay.js";')).toHaveLength(1);
  });

  it("keeps src/core free of I/O, environment and clock", () => {
    const offenders: string[] = [];
    for (const file of files.filter((f) => unitOf(relative(ROOT, f)).startsWith("core"))) {
      const src = readFileSync(file, "utf8");
      for (const spec of importsOf(src))
        if (FORBIDDEN_IN_CORE.test(spec)) offenders.push(`${file}: imports ${spec}`);
      if (/process\.(env|cwd|platform|argv|stdout|stderr)/.test(src))
        offenders.push(`${file}: touches process`);
      if (/Date\.now\(\)|new Date\(\)|performance\.now\(\)/.test(src))
        offenders.push(`${file}: reads the clock`);
    }
    expect(offenders).toEqual([]);
  });

  it("imports only along the allowed direction, between layers and inside core", () => {
    const offenders = files.flatMap((f) => offendersIn(relative(ROOT, f), readFileSync(f, "utf8")));
    expect(offenders).toEqual([]);
  });
});
