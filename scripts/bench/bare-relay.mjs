// The baseline relay: pipes bytes both ways and does nothing else. effectgate's overhead is
// reported against this, so the comparison isolates what judging and logging cost.
import { spawn } from "node:child_process";

const [cmd, ...args] = process.argv.slice(2);
const child = spawn(cmd, args, { stdio: ["pipe", "pipe", "inherit"] });
process.stdin.pipe(child.stdin);
child.stdout.pipe(process.stdout);
child.on("exit", (code) => process.exit(code ?? 1));
