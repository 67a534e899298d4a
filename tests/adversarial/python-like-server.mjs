// The lenient fixture server behind the input handling of a Python server: text-mode stdin ends a
// line at a lone \r as well as at \n (universal newlines), and json.loads takes NaN, Infinity and
// -Infinity. Each such line is handed on to lenient-server.mjs, which records and acts on it.
import { spawn } from "node:child_process";
import { join } from "node:path";

const lenient = join(import.meta.dirname, "..", "fixtures", "adversarial", "lenient-server.mjs");
const child = spawn(process.execPath, [lenient], { stdio: ["pipe", "inherit", "inherit"] });
child.on("exit", (code) => process.exit(code ?? 1));
process.stdin.on("end", () => child.stdin.end());

// What json.loads reads as a number where JSON has none; JSON.parse reads null in its place.
const NON_FINITE = /([:,[]\s*)-?(?:NaN|Infinity)(?=\s*[,}\]])/g;
let pending = "";
process.stdin.setEncoding("utf8");
process.stdin.on("data", (chunk) => {
  pending += chunk;
  const lines = pending.split(/\r\n|\r|\n/);
  pending = lines.pop() ?? "";
  for (const line of lines) child.stdin.write(line.replace(NON_FINITE, "$1null") + "\n");
});
