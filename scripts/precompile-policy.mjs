// Part of `npm run build`: validates policy/default.yaml once and keeps its document in
// build/default-policy.json (copied into dist/ by scripts/bundle.mjs) with the hash of the bytes it came from, so that a relay start
// needs neither the YAML parser nor the schema library (docs/decisions/0107-start-up-path.md).
// A default that does not load fails the build with the loader's own messages.
import { readFileSync, writeFileSync } from "node:fs";
import { TextDecoder } from "node:util";
import { dirname, join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const built = (p) => pathToFileURL(join(root, "build", p)).href;
const { DEFAULT_POLICY_PATH, PRECOMPILED_POLICY_PATH } = await import(built("config/default-policy.js"));
const { readPolicyDocument } = await import(built("core/policy/load.js"));
const { sha256Hex } = await import(built("core/json/jcs.js"));

const bytes = readFileSync(DEFAULT_POLICY_PATH);
// The document does not depend on the machine; each start compiles its patterns for its own.
const profile = { platform: "linux", home: "/home/user", env: {}, cwd: "/home/user" };
let doc;
try {
  doc = readPolicyDocument(
    new TextDecoder("utf-8", { fatal: true }).decode(bytes),
    "policy/default.yaml",
    profile,
  ).doc;
} catch (err) {
  process.stderr.write(`precompile-policy: ${err instanceof Error ? err.message : String(err)}\n`);
  process.exit(1);
}
writeFileSync(
  PRECOMPILED_POLICY_PATH,
  `${JSON.stringify({ format: 1, sha256: sha256Hex(bytes), document: doc })}\n`,
);
