import { defineConfig } from "vitest/config";

// The package test (tests/package/): a fresh clone packed and installed globally. Minutes, not
// seconds, so `npm test` leaves it out and CI runs it on its own (`npm run test:package`).
export default defineConfig({
  test: {
    include: ["tests/package/**/*.test.ts"],
    testTimeout: 120_000,
    hookTimeout: 600_000,
    pool: "forks",
  },
});
