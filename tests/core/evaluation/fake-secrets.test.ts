import { describe, expect, it } from "vitest";
import { expandSecrets, SECRET_KINDS } from "../../../src/core/evaluation/fake-secrets.js";
import { parseScenarioFile } from "../../../src/core/evaluation/scenario-file.js";
import { findSecrets } from "../../../src/core/secrets/formats.js";

const made = (text: string, seed = "s") => {
  const r = expandSecrets(text, seed);
  if (!r.ok) throw new Error(r.expected);
  return r.text;
};

describe("scenario secrets: {{secret:KIND}}", () => {
  it("makes each kind in a format the judge finds, the same for the same seed and kind", () => {
    const expected: Record<string, string> = {
      "github-token": "github-token",
      "npm-token": "npm-token",
      "private-key": "private-key",
      jwt: "jwt",
      "seed-phrase": "seed-phrase",
      "slack-token": "slack-token",
    };
    for (const [kind, id] of Object.entries(expected))
      expect(
        findSecrets(made(`x {{secret:${kind}}} y`)).map((f) => f.id),
        kind,
      ).toEqual([id]);
    expect(
      findSecrets(made("{{secret:aws-access-key-id}} {{secret:aws-secret-key}}")).map((f) => f.id),
    ).toEqual(["aws-access-key-pair"]);
    expect(SECRET_KINDS).toContain("aws-secret-key");
    expect(made("{{secret:github-token}}")).toBe(made("{{secret:github-token}}"));
    expect(made("{{secret:github-token}}", "a")).not.toBe(made("{{secret:github-token}}", "b"));
  });

  it("applies encodings and slices in order", () => {
    const token = made("{{secret:github-token}}");
    expect(made("{{secret:github-token|base64}}")).toBe(Buffer.from(token).toString("base64"));
    expect(made("{{secret:github-token|hex}}")).toBe(Buffer.from(token).toString("hex"));
    expect(made("{{secret:github-token|slice:0:10|percent}}")).toBe(
      Array.from(token.slice(0, 10), (c) => `%${c.charCodeAt(0).toString(16)}`).join(""),
    );
  });

  it("an unknown kind or step is a problem on its line", () => {
    const yaml = [
      "id: x",
      "title: t",
      "category: c",
      "source: {ref: r, what: w}",
      "platform: linux",
      "server: {name: s, command: [x]}",
      "messages:",
      "  - c2s: {id: 1, method: tools/call, params: {name: t, arguments: {a: '{{secret:nope}}'}}}",
      "    harmful: true",
    ].join("\n");
    const r = parseScenarioFile(yaml, "x.yaml");
    expect(r.ok).toBe(false);
    if (!r.ok)
      expect(r.problems[0]).toMatchObject({
        file: "x.yaml",
        line: 8,
        key: "messages[0].c2s.params.arguments.a",
        got: '"nope"',
      });
    expect(expandSecrets("{{secret:jwt|rot13}}", "s")).toMatchObject({ ok: false, got: '"rot13"' });
  });
});
