import { existsSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { box, GateClient, isRefusal, LENIENT_SERVER, receivedWork } from "./gate-client.js";
import { expectBlocked, tc } from "./run-case.js";
import { bashrc, INDIRECT, indirectTargets, keys, READS, SPELLINGS, withKey } from "./spelling-cases.js";

const write = (path: string): string => tc(1, "write_file", { path, content: "ssh-ed25519 AAAA attacker" });

describe("path spellings at enforce: nothing reaches the server or the disk", () => {
  for (const a of SPELLINGS) {
    it(`${a.name}: ${a.tries}`, async () => {
      await expectBlocked({
        ...a,
        answerId: 1,
        untouched: (b) => [keys(b.home), join(b.home, ".ssh", "x"), bashrc(b.home)],
      });
    });
  }
});

describe("secret reads at enforce: the server never sees them, the secret never comes back", () => {
  for (const a of READS) {
    it(`${a.name}: ${a.tries}`, async () => {
      await expectBlocked({
        ...a,
        answerId: 1,
        secret: "adversarial-secret",
        setup: (b) => (withKey(b), a.setup?.(b)),
      });
    });
  }
});

// Case and Unicode normalisation only fold on darwin and win32. On Linux `.SSH` is a different
// name on disk, so relaying it is correct; what must hold is that the protected spelling itself
// is refused and never written. An NFD spelling is a different name to the kernel too, but a
// server may open the existing name with the same NFC form (the reference filesystem server
// does), so it is judged as its NFC form as well (decision 0061) and refused.
describe("case and NFD variants on linux (different files here)", () => {
  it.runIf(process.platform === "linux")(
    "~/.SSH is another folder on linux: relayed, ~/.ssh untouched",
    async () => {
      const b = box();
      const c = new GateClient(["--level", "enforce", "--", process.execPath, LENIENT_SERVER], b.env);
      await c.initialize();
      c.write(write("~/.SSH/authorized_keys"));
      const answer = await c.answer(1);
      await c.close();
      expect(isRefusal(answer)).toBe(false);
      expect(existsSync(join(b.home, ".SSH", "authorized_keys"))).toBe(true);
      expect(existsSync(keys(b.home))).toBe(false);
    },
  );

  it.runIf(process.platform === "linux")(
    "a policy denying ~/Café/**: NFC refused, NFD refused too (its NFC form is the folder)",
    async () => {
      const b = box();
      const policy = join(b.home, "nfc-policy.yaml");
      writeFileSync(policy, 'version: 1\npaths:\n  deny:\n    - "~/Caf\u00e9/**"\n');
      const c = new GateClient(
        ["--policy", policy, "--level", "enforce", "--", process.execPath, LENIENT_SERVER],
        b.env,
      );
      await c.initialize();
      c.write(tc("nfc", "write_file", { path: "~/Caf\u00e9/x", content: "1" }));
      c.write(tc("nfd", "write_file", { path: "~/Cafe\u0301/x", content: "2" }));
      const nfc = await c.answer("nfc");
      const nfd = await c.answer("nfd");
      await c.close();
      expect(isRefusal(nfc)).toBe(true);
      expect(existsSync(join(b.home, "Caf\u00e9", "x"))).toBe(false);
      expect(isRefusal(nfd)).toBe(true);
      expect(existsSync(join(b.home, "Cafe\u0301", "x"))).toBe(false);
      expect(receivedWork(b.record).some((l) => l.includes('"nfc"') || l.includes('"nfd"'))).toBe(false);
    },
  );
});

describe("indirect writes: a protected file changes without being named", () => {
  for (const a of INDIRECT) {
    it(`${a.name}: ${a.tries}`, async () => {
      await expectBlocked({
        ...a,
        answerId: 1,
        untouched: indirectTargets,
        ...(a.name === "hard-link" ? { unchanged: (b) => [bashrc(b.home)] } : {}),
      });
    });
  }
});
