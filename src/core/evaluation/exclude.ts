// The exclusion list for benign measurement: sessions that are not ordinary work (probes, demos,
// attack rehearsals) with the reason each is left out, one `ID  # reason` per line.
import { ConfigError, type ConfigProblem } from "../errors.js";

export function parseExcludeFile(text: string, file: string): Map<string, string> {
  const out = new Map<string, string>();
  const problems: ConfigProblem[] = [];
  text.split(/\r?\n/).forEach((raw, i) => {
    const line = raw.trim();
    if (line === "" || line.startsWith("#")) return;
    const m = /^(\S+)(?:\s+#(.*))?$/.exec(line);
    if (!m) {
      problems.push({
        file,
        line: i + 1,
        key: "exclude",
        expected: "a session id, optionally followed by  # reason",
        got: JSON.stringify(line.slice(0, 60)),
      });
      return;
    }
    out.set(m[1] as string, m[2]?.trim() || "no reason given");
  });
  if (problems.length > 0) throw new ConfigError(problems);
  return out;
}
