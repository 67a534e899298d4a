// The adapters' report: per level, attacks contained and benign cases passed, overall and per
// category, then each case that got through or was refused wrongly at enforce.

const pct = (n, d) => (d === 0 ? "-" : `${Math.round((100 * n) / d)}%`);

/** Counts of `rows` (one level's): attacks, contained, benign, passed, not applicable. */
export function tally(rows) {
  const attacks = rows.filter((r) => r.expected === "block" && r.score !== "not-applicable");
  const benign = rows.filter((r) => r.expected === "allow" && r.score !== "not-applicable");
  return {
    attacks: attacks.length,
    contained: attacks.filter((r) => r.score === "contained").length,
    benign: benign.length,
    passed: benign.filter((r) => r.score === "passed").length,
    notApplicable: rows.filter((r) => r.score === "not-applicable").length,
  };
}

const line = (label, t) =>
  `  ${label.padEnd(24)} contained ${`${t.contained}/${t.attacks}`.padStart(6)} ${pct(t.contained, t.attacks).padStart(5)}` +
  `   false positives ${`${t.benign - t.passed}/${t.benign}`.padStart(5)}` +
  (t.notApplicable > 0 ? `   not applicable ${t.notApplicable}` : "");

export function printTable(rows, { perCase = false, write = (s) => process.stdout.write(s + "\n") } = {}) {
  const levels = [...new Set(rows.map((r) => r.level))];
  for (const level of levels) {
    const mine = rows.filter((r) => r.level === level);
    write(`${level === "off" ? "off (EFFECTGATE_OFF=1)" : level}`);
    write(line("all", tally(mine)));
    for (const category of [...new Set(mine.map((r) => r.category))].sort())
      write(line(category, tally(mine.filter((r) => r.category === category))));
    for (const r of mine)
      if (perCase || r.score === "missed" || r.score === "false-positive" || r.score === "not-applicable")
        write(`    ${r.score.padEnd(15)} ${r.id}${r.note ? ` (${r.note})` : ""}`);
  }
}
