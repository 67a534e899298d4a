// Mutation testing of the guards: npm run mutate. Scope is src/core/, where every decision lives.
/** @type {import('@stryker-mutator/api/core').PartialStrykerOptions} */
export default {
  testRunner: "vitest",
  vitest: { configFile: "vitest.config.ts" },
  mutate: ["src/core/**/*.ts", "!src/core/**/api.ts", "!src/core/types.ts", "!src/core/**/bench*.ts"],
  reporters: ["clear-text", "progress", "json"],
  jsonReporter: { fileName: "reports/mutation/mutation.json" },
  coverageAnalysis: "perTest",
  concurrency: 2,
  thresholds: { high: 90, low: 80, break: null },
  tempDirName: ".stryker-tmp",
};
