// Score table and per-line survivor list from Stryker JSON reports (see tests/mutations.md).
// usage: node tests/mutation/report.mjs out.md report.json [later.json ...]; later reports replace earlier files.
import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import process from "node:process";
import { URL } from "node:url";
import console from "node:console";
const [out, ...reports] = process.argv.slice(2);
// Later reports win mutant by mutant (same place, mutator and replacement), so a run limited to
// some lines or to static mutants updates just those and keeps the rest of the earlier run. When
// the file's source changed between the runs, the later run replaces the file's entry whole.
const files = {};
const key = (m) =>
  `${m.location.start.line}:${m.location.start.column}:${m.location.end.line}:${m.location.end.column}:${m.mutatorName}:${m.replacement ?? ""}`;
for (const f of reports)
  for (const [k, v] of Object.entries(JSON.parse(readFileSync(f, "utf8")).files)) {
    const rel = k.replace(/^.*src\/core\//, "");
    const same = files[rel]?.source === v.source;
    const merged = new Map((same ? files[rel].mutants : []).map((m) => [key(m), m]));
    for (const m of v.mutants) merged.set(key(m), m);
    files[rel] = { ...v, mutants: [...merged.values()] };
  }
// One file per src/core folder (tests/mutation/equivalent/<folder>.json) so areas can be worked apart.
const equivDir = new URL("./equivalent/", import.meta.url);
const EQUIV = readdirSync(equivDir)
  .filter((f) => f.endsWith(".json"))
  .flatMap((f) => JSON.parse(readFileSync(new URL(f, equivDir), "utf8")));
const folders = {};
const lines = [];
for (const [rel, f] of Object.entries(files).sort()) {
  const folder = rel.includes("/") ? rel.split("/")[0] : "(top-level files)";
  const blank = () => ({ Killed: 0, Timeout: 0, Survived: 0, NoCoverage: 0, Ignored: 0, Equivalent: 0 });
  const c = (folders[folder] ??= blank());
  const t = (folders.TOTAL ??= blank());
  for (const m of f.mutants) {
    c[m.status] = (c[m.status] ?? 0) + 1;
    t[m.status] = (t[m.status] ?? 0) + 1;
  }
  const src = f.source.split("\n");
  const und = f.mutants
    .filter((m) => m.status === "Survived" || m.status === "NoCoverage")
    .sort(
      (a, b) =>
        a.location.start.line - b.location.start.line || a.location.start.column - b.location.start.column,
    );
  if (und.length === 0) continue;
  lines.push(`\n### src/core/${rel} (${und.length})\n`);
  const byLine = new Map();
  for (const m of und) {
    const L = m.location.start.line;
    const why = EQUIV.find(
      (e) =>
        rel === e.file &&
        e.lines.includes(L) &&
        (!e.columns || e.columns.includes(m.location.start.column)) &&
        (!e.match || (m.replacement ?? m.mutatorName).includes(e.match)),
    );
    const rep = (m.replacement ?? m.mutatorName)
      .slice(0, 24)
      .replace(/`/g, "'")
      .replace(/\n/g, " ")
      .replace(/\|/g, "¦");
    if (why) {
      c.Equivalent++;
      t.Equivalent++;
    }
    const key = `${L}\u0000${why ? why.why : ""}`;
    if (!byLine.has(key)) byLine.set(key, { L, why, items: [] });
    byLine.get(key).items.push(`${m.status === "NoCoverage" ? "nc " : ""}\`${rep}\``);
  }
  for (const { L, why, items } of byLine.values())
    lines.push(
      `- L${L} \`${src[L - 1].trim().slice(0, 48).replace(/`/g, "'")}\`: ${items.join(", ")}${why ? ` — **equivalent**: ${why.why}` : ""}`,
    );
}
// Stryker's score counts every live mutant; the second score sets aside the ones listed as
// equivalent (each with the fact that makes it so), as the classic definition of the score does.
const pct = (c, equivalentAside = false) => {
  const d = c.Killed + c.Timeout,
    u = c.Survived + c.NoCoverage - (equivalentAside ? c.Equivalent : 0);
  return `${((100 * d) / Math.max(1, d + u)).toFixed(1)}%`;
};
const rows = Object.entries(folders)
  .sort(([a], [b]) => (a === "TOTAL") - (b === "TOTAL") || a.localeCompare(b))
  .map(
    ([k, c]) =>
      `| ${k === "TOTAL" ? "**total**" : k} | ${k === "TOTAL" ? `**${pct(c)}**` : pct(c)} | ${pct(c, true)} | ${c.Killed} | ${c.Timeout} | ${c.Survived} | ${c.NoCoverage} | ${c.Equivalent} | ${c.Ignored} |`,
  );
writeFileSync(
  out,
  [
    "| folder | score | equivalents aside | killed | timeout | survived | no coverage | listed equivalent | static (not run) |",
    "|---|---|---|---|---|---|---|---|---|",
    ...rows,
  ].join("\n") +
    "\n@@APPENDIX@@\n" +
    lines.join("\n") +
    "\n",
);
console.log(rows.join("\n"));
