// npm run release: build the package tarball (dist/ built clean by scripts/prepare.mjs) and
// record its SHA-256 in SHA256SUMS.txt. `npm run release -- --check` rebuilds and fails if the
// committed sums differ, which is how CI proves that the same sources give the same bytes.
import { execFileSync } from "node:child_process";
import { createHash } from "node:crypto";
import { mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const check = process.argv.includes("--check");
const outDir = join(root, "release");
const npm = process.platform === "win32" ? "npm.cmd" : "npm";

rmSync(outDir, { recursive: true, force: true });
mkdirSync(outDir);
// npm pack runs `prepare` (scripts/prepare.mjs), which builds dist/ from a clean folder.
// SOURCE_DATE_EPOCH is honoured by npm's tar; npm already normalises entry mtimes and order.
const packed = JSON.parse(
  execFileSync(npm, ["pack", "--json", "--pack-destination", outDir], {
    cwd: root,
    encoding: "utf8",
    env: { ...process.env, SOURCE_DATE_EPOCH: "315532800" },
  }),
);
const lines = packed.map((p) => {
  const sha = createHash("sha256")
    .update(readFileSync(join(outDir, p.filename)))
    .digest("hex");
  return `${sha}  ${p.filename}\n`;
});
const sums = lines.join("");
const sumsPath = join(root, "SHA256SUMS.txt");

if (check) {
  let committed = "";
  try {
    committed = readFileSync(sumsPath, "utf8");
  } catch {
    // reported below as a mismatch
  }
  if (committed !== sums) {
    process.stderr.write(
      `SHA256SUMS.txt does not match a fresh build.\n  committed: ${committed.trim() || "(missing)"}\n  built:     ${sums.trim()}\nRun npm run release and commit SHA256SUMS.txt.\n`,
    );
    process.exit(1);
  }
  process.stdout.write(`release: ${sums.trim()} (matches SHA256SUMS.txt)\n`);
} else {
  writeFileSync(sumsPath, sums);
  process.stdout.write(`release: wrote SHA256SUMS.txt\n${sums}`);
}
