// Mutation testing of the guards: npm run mutate. Scope is src/core/, where every decision lives.
import process from "node:process";

/** @type {import('@stryker-mutator/api/core').PartialStrykerOptions} */
export default {
  testRunner: "vitest",
  // Only in-process unit tests: the sandbox has no dist/, and spawning tests per mutant is too slow.
  vitest: { configFile: "vitest.mutate.config.ts" },
  mutate: ["src/core/**/*.ts", "!src/core/**/api.ts", "!src/core/types.ts"],
  reporters: ["clear-text", "progress", "json"],
  // MUTATE_REPORT lets one-folder runs keep their reports apart.
  jsonReporter: { fileName: process.env.MUTATE_REPORT ?? "reports/mutation/mutation.json" },
  coverageAnalysis: "perTest",
  concurrency: 2,
  // Other work shares the 2 cores: a generous fixed allowance keeps a slow run from passing for
  // an infinite loop (a Timeout counts as killed, so it must not be cheap to get).
  timeoutMS: 10000,
  thresholds: { high: 90, low: 80, break: null },
  tempDirName: ".stryker-tmp",
};
