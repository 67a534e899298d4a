import fc from "fast-check";

// Properties run with a fixed seed in CI so a red run can be reproduced exactly; FC_SEED picks
// another seed and FC_RUNS a longer run on demand (e.g. FC_RUNS=20000 npm test).
const seed = Number(process.env.FC_SEED ?? 20261130);
const numRuns = Number(process.env.FC_RUNS ?? 100);
fc.configureGlobal({ seed, numRuns });
