// The content scan's CPU on the bench's two 4 MiB answers, this build and optionally another
// taking turns in one process: `node scripts/bench/scan-cost.mjs [turns] [other build's module folder]`
// (tsc's output: build/ since dist/ is bundled, dist/ in older builds).
// A whole relay's CPU swings with the machine's load; one function in one process swings less.
import { loadavg } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { codeText } from "./code-text.mjs";

const root = join(dirname(fileURLToPath(import.meta.url)), "..", "..");
const turns = Number(process.argv[2] ?? 11);
const builds = { "this build": join(root, "build") };
if (process.argv[3] !== undefined) builds["other build"] = resolve(process.argv[3]);
const scans = {};
for (const [name, dist] of Object.entries(builds))
  scans[name] = (await import(join(dist, "core", "taint", "observe.js"))).scoreResponse;

const load = () => loadavg()[0].toFixed(1);
console.log(`load average (1 min) ${load()} at the start`);
const texts = { letters: "y".repeat(4 * 1024 * 1024), "source code": codeText(root) };
for (const [label, text] of Object.entries(texts)) {
  if (text === undefined) continue;
  const response = { result: { content: [{ type: "text", text }] } };
  const verdicts = new Set(Object.values(scans).map((scan) => JSON.stringify(scan(response))));
  if (verdicts.size > 1) throw new Error(`the builds' scans disagree on ${label}`);
  const cpu = Object.fromEntries(Object.keys(scans).map((k) => [k, []]));
  for (let i = 0; i < turns; i++) {
    const order = i % 2 === 0 ? Object.keys(scans) : Object.keys(scans).reverse();
    for (const k of order) {
      const t = process.cpuUsage();
      scans[k](response);
      const d = process.cpuUsage(t);
      cpu[k].push((d.user + d.system) / 1000);
    }
  }
  const median = (v) => v.sort((a, b) => a - b)[v.length >> 1].toFixed(1);
  console.log(
    `${label}: ${Object.entries(cpu)
      .map(([k, v]) => `${k} ${median(v)} ms`)
      .join(", ")} (CPU per scan, median of ${turns})`,
  );
}
console.log(`load average (1 min) ${load()} at the end`);
