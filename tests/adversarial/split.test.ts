import { existsSync } from "node:fs";
import { join } from "node:path";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { box, GateClient, isRefusal, LENIENT_SERVER, receivedWork } from "./gate-client.js";

// A denied call cut into pieces must be refused however the pipe delivers it: the relay judges
// frames, not reads. Pieces are written with a pause between them so they arrive as separate reads.

const pause = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));
const frame = (id: string): Buffer =>
  Buffer.from(
    JSON.stringify({
      jsonrpc: "2.0",
      id,
      method: "tools/call",
      params: {
        name: "write_file",
        arguments: { path: "~/.ssh/authorized_keys", content: "k\u00e9y \u2603" },
      },
    }) + "\n",
  );

async function session(body: (c: GateClient) => Promise<void>): Promise<ReturnType<typeof box>> {
  const b = box();
  const c = new GateClient(["--level", "enforce", "--", process.execPath, LENIENT_SERVER], b.env);
  try {
    await c.initialize();
    await body(c);
  } finally {
    await c.close();
  }
  return b;
}

function expectNothingReached(b: ReturnType<typeof box>): void {
  expect(receivedWork(b.record).filter((l) => l.includes("authorized_keys"))).toEqual([]);
  expect(existsSync(join(b.home, ".ssh", "authorized_keys"))).toBe(false);
}

describe("a denied call split across reads", () => {
  it("written byte by byte (multi-byte UTF-8 split too): refused", { timeout: 60_000 }, async () => {
    const b = await session(async (c) => {
      const bytes = frame("bytewise");
      for (let i = 0; i < bytes.length; i++) {
        c.write(bytes.subarray(i, i + 1));
        await pause(2);
      }
      expect(isRefusal(await c.answer("bytewise"))).toBe(true);
    });
    expectNothingReached(b);
  });

  it("cut in two at EVERY byte boundary: each one refused", { timeout: 120_000 }, async () => {
    const b = await session(async (c) => {
      const n = frame("k0").length;
      for (let k = 1; k < n; k++) {
        const bytes = frame(`k${String(k).padStart(3, "0")}`);
        c.write(bytes.subarray(0, k));
        await pause(3);
        c.write(bytes.subarray(k));
        expect(isRefusal(await c.answer(`k${String(k).padStart(3, "0")}`)), `split at ${k}`).toBe(true);
      }
    });
    expectNothingReached(b);
  });

  it(
    "any split into up to 6 pieces, glued to a harmless neighbour frame (fast-check)",
    { timeout: 120_000 },
    async () => {
      let run = 0;
      const b = await session(async (c) => {
        await fc.assert(
          fc.asyncProperty(
            fc.uniqueArray(fc.integer({ min: 1, max: 400 }), { maxLength: 5 }),
            async (cuts) => {
              const id = `p${run++}`;
              const harmless = Buffer.from(
                JSON.stringify({ jsonrpc: "2.0", id: `${id}-ping`, method: "ping" }) + "\n",
              );
              const bytes = Buffer.concat([harmless, frame(id)]);
              const points = [0, ...cuts.filter((x) => x < bytes.length).sort((x, y) => x - y), bytes.length];
              for (let i = 0; i + 1 < points.length; i++) {
                c.write(bytes.subarray(points[i], points[i + 1]));
                await pause(2);
              }
              return isRefusal(await c.answer(id));
            },
          ),
          { numRuns: 40 },
        );
      });
      expectNothingReached(b);
    },
  );
});
