// The first session of each server at observe says, on stderr, what observe does and how to
// enforce; later sessions of that server stay quiet.
import { rmSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { RawClient, RECORDING_SERVER, sandbox } from "./harness.js";

const OBSERVE =
  "effectgate: level observe: every call is relayed and logged, none is refused; the log says what enforce would refuse";
const ENFORCE =
  "effectgate: to enforce: see what it would have refused with effectgate status, then run effectgate install --level enforce (or put --level enforce before -- in the client's config)";

const homes: string[] = [];
afterEach(() => {
  for (const h of homes.splice(0)) rmSync(h, { recursive: true, force: true });
});

async function session(args: string[], env: NodeJS.ProcessEnv): Promise<string> {
  const c = new RawClient([...args, "--", process.execPath, RECORDING_SERVER], env);
  await c.initialize();
  await c.close();
  return c.stderr;
}

describe("the observe notice in a server's first session", () => {
  it("is said once per server name, in two lines, and not again", async () => {
    const b = sandbox();
    homes.push(b.home);
    const logs = ["--log-dir", join(b.home, "sessions")];
    const first = await session([...logs, "--name", "fs"], b.env);
    expect(first.split("\n")).toEqual(expect.arrayContaining([OBSERVE, ENFORCE]));
    expect(await session([...logs, "--name", "fs"], b.env)).not.toContain("level observe");
    // Another server's first session, and one without a name, each hear it once.
    expect(await session([...logs, "--name", "git"], b.env)).toContain(OBSERVE);
    expect(await session(logs, b.env)).toContain(OBSERVE);
    expect(await session(logs, b.env)).not.toContain(OBSERVE);
  });

  it("is not said at enforce, nor with every check off", async () => {
    const b = sandbox();
    homes.push(b.home);
    const logs = ["--log-dir", join(b.home, "sessions")];
    expect(await session([...logs, "--level", "enforce"], b.env)).not.toContain("level observe");
    expect(await session(logs, { ...b.env, EFFECTGATE_OFF: "1" })).not.toContain("level observe");
  });
});
