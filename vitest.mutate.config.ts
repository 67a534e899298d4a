import { defineConfig } from "vitest/config";

// The test set Stryker runs against each mutant: only in-process unit tests. Anything that spawns
// the built CLI or a fixture server is left out, because Stryker's sandbox has no dist/ and a
// process-spawning test per mutant would take hours on a 2-core machine. The decisions all live in
// src/core/, and these tests call it directly.
// MUTATE_TESTS (comma-separated globs) narrows the set for a one-folder run, e.g.
// MUTATE_TESTS='tests/core/paths/**' npx stryker run --mutate 'src/core/paths/*.ts'.
// Many core mutants are "static" (reached while test files are collected), and Stryker runs the
// whole set for each of those, so a narrow set is what makes a folder run take minutes, not hours.
const narrowed = process.env.MUTATE_TESTS?.split(",").filter((g) => g !== "");

export default defineConfig({
  test: {
    include: narrowed && narrowed.length > 0 ? narrowed : ["tests/**/*.test.ts"],
    exclude: [
      "tests/e2e/**",
      "tests/adversarial/**",
      "tests/faults/**",
      "tests/clients/**",
      "tests/commands/**",
      "tests/log/processes.test.ts",
      "tests/relay/gates/pin-runtime.test.ts",
      "tests/relay/gates/pin-gate.test.ts",
      "tests/relay/cli.test.ts",
      "tests/relay/fixtures.test.ts",
      "tests/relay/refusal.test.ts",
      "tests/relay/ask-cli.test.ts",
      "tests/relay/process-group.test.ts",
      "tests/policy/tool-globs-cli.test.ts",
      "tests/policy/windows-anchors.test.ts",
      "tests/layering.test.ts",
      // These read HOME through os.homedir(), which does not follow a changed HOME inside Stryker's
      // workers; they test src/platform, not src/core.
      "tests/platform/profile.test.ts",
      "tests/platform/resolver.test.ts",
    ],
    setupFiles: ["tests/setup/fast-check.ts"],
    // Each static mutant reruns the whole set, so properties run 25 times here instead of 100
    // (tests that set their own numRuns keep it). FC_RUNS still overrides.
    env: { FC_RUNS: process.env.FC_RUNS ?? "25" },
    testTimeout: 20_000,
    hookTimeout: 20_000,
    pool: "forks",
  },
});
