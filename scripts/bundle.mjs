// Part of `npm run build`, after tsc: bundles tsc's output (build/) into the shipped dist/, so a
// start reads a few files instead of about a hundred (docs/decisions/0147-one-bundled-build.md).
// Code splitting keeps each dynamic import() a chunk of its own: the relay's start path, each
// subcommand and the observe worker load only what they loaded before.
import { build } from "esbuild";
import { copyFileSync, rmSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const from = (p) => join(root, "build", p);
const dist = join(root, "dist");

// A clean dist/: a chunk left from an older build must not be packed.
rmSync(dist, { recursive: true, force: true });
const result = await build({
  // Both entries keep tsc's file names: the bin is dist/main.js, and the relay starts its worker
  // as ./shadow-worker.js beside its own chunk. Every file lands at the top of dist/, one folder
  // below the package, as src/package-dir.ts expects.
  entryPoints: { main: from("main.js"), "shadow-worker": from("relay/session/shadow-worker.js") },
  outdir: dist,
  chunkNames: "chunk-[hash]",
  bundle: true,
  splitting: true,
  format: "esm",
  platform: "node",
  // A package's ES build before its "main": jsonc-parser's main is UMD, whose require() calls
  // are hidden from the bundler and fail at run time ("Cannot find module './impl/format'").
  mainFields: ["module", "main"],
  target: "node20",
  // Native or WebAssembly packages find their own files beside them: they stay in node_modules.
  external: ["koffi", "tree-sitter-bash", "web-tree-sitter"],
  // CommonJS dependencies (commander) require Node's modules; an ES module has no `require`.
  banner: {
    js: 'import { createRequire as __egRequire } from "node:module";\nconst require = __egRequire(import.meta.url);',
  },
  // Chained through tsc's maps to src/*.ts: `node --enable-source-maps` names the source files.
  sourcemap: "linked",
  sourcesContent: false,
  metafile: true,
  logLevel: "warning",
});
copyFileSync(from("default-policy.json"), join(dist, "default-policy.json"));
// Which build/ modules and packages each chunk holds: the start-path tests read it (not shipped).
writeFileSync(from("bundle-meta.json"), `${JSON.stringify(result.metafile)}\n`);
