// Unit behind defect 4 of the observe hunt (docs/decisions/0066): a big client line keeps every
// member of a call's `arguments` (keepLevels 3), so a `path` after a long `content` is judged.
import { describe, expect, it } from "vitest";
import { JsonStructureCutter } from "../../../src/core/json/structure-cut.js";
import { inPieces } from "../../helpers/json-cut.js";

describe("the structure cut", () => {
  it("of a call keeps its arguments' members with keepLevels 3", () => {
    const call = {
      jsonrpc: "2.0",
      id: 1,
      method: "tools/call",
      params: { name: "write_file", arguments: { content: "a".repeat(50), path: "/x", rows: [1, 2, 3, 4] } },
    };
    const text = JSON.stringify(call);
    const two = inPieces(new JsonStructureCutter(10), text);
    const three = inPieces(new JsonStructureCutter(10, { keepLevels: 3 }), text);
    expect(JSON.parse(two.text)).toMatchObject({ params: { arguments: { content: "a".repeat(50) } } });
    expect(JSON.parse(two.text).params.arguments.path).toBeUndefined();
    expect(JSON.parse(three.text)).toEqual({
      ...call,
      params: { ...call.params, arguments: { ...call.params.arguments, rows: [1] } },
    });
  });

  it("in a batch keeps each call's arguments' members with keepLevels 3", () => {
    const call = (id: number) => ({
      jsonrpc: "2.0",
      id,
      method: "tools/call",
      params: { name: "write_file", arguments: { content: "a".repeat(50), path: `/x${id}`, rows: [1, 2] } },
    });
    const text = JSON.stringify([call(1), call(2)]);
    const kept = JSON.parse(inPieces(new JsonStructureCutter(10, { keepLevels: 3 }), text).text);
    expect(kept.map((m: { params: { arguments: { path: string } } }) => m.params.arguments.path)).toEqual([
      "/x1",
      "/x2",
    ]);
  });
});
