// Minimal MCP-shaped server for the benchmark: answers initialize, tools/list and tools/call
// (echoing the `text` or `content` argument back), with no framework in the way.
import { readFileSync } from "node:fs";
import { stdin, stdout } from "node:process";

let pending = [];
stdin.on("data", (chunk) => {
  let start = 0;
  for (let i = chunk.indexOf(10); i !== -1; i = chunk.indexOf(10, start)) {
    pending.push(chunk.subarray(start, i));
    handle(Buffer.concat(pending).toString("utf8"));
    pending = [];
    start = i + 1;
  }
  if (start < chunk.length) pending.push(chunk.subarray(start));
});

function reply(id, result) {
  stdout.write(JSON.stringify({ jsonrpc: "2.0", id, result }) + "\n");
}

function handle(line) {
  if (line.length === 0) return;
  const msg = JSON.parse(line);
  if (msg.id === undefined) return;
  if (msg.method === "initialize") {
    reply(msg.id, {
      protocolVersion: "2025-11-25",
      capabilities: { tools: {} },
      serverInfo: { name: "bench-echo", version: "1" },
    });
  } else if (msg.method === "tools/list") {
    reply(msg.id, { tools: [{ name: "echo", description: "echo", inputSchema: { type: "object" } }] });
  } else if (msg.method === "tools/call") {
    const args = msg.params?.arguments ?? {};
    if (args.stderr) process.stderr.write(`handled ${msg.id}\n`);
    // `fill: n` answers with n letters and `file` with a file's text (a big answer to a short
    // call); `quiet` answers a big call with a short note, so one frame at a time can be
    // measured; otherwise the text or content comes back.
    // `items: n` answers with n bytes or so of small content items (one per ~39 bytes).
    if (args.items) {
      const content = Array.from({ length: Math.ceil(args.items / 39) }, (_, i) => ({
        type: "text",
        text: `item ${String(i).padStart(8, "0")}`,
      }));
      reply(msg.id, { content });
      return;
    }
    const text = args.fill
      ? "z".repeat(args.fill)
      : args.file
        ? readFileSync(args.file, "utf8")
        : args.quiet
          ? "written"
          : (args.text ?? args.content ?? "");
    reply(msg.id, { content: [{ type: "text", text }] });
  } else {
    reply(msg.id, {});
  }
}
