import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["tests/**/*.test.ts"],
    // Packing and installing a fresh clone takes minutes: vitest.package.config.ts runs it.
    exclude: ["tests/package/**", "node_modules/**"],
    setupFiles: ["tests/setup/fast-check.ts"],
    // Every temporary folder of the run lives in one, removed when the run ends.
    globalSetup: ["tests/setup/temp-root.ts"],
    // Black-box tests spawn real processes; give them room on a 2-core machine.
    testTimeout: 60_000,
    hookTimeout: 60_000,
    pool: "forks",
  },
});
