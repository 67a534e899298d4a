import { describe, expect, it } from "vitest";
import type { BenignReport } from "../../../src/core/evaluation/benign.js";
import type { RecallReport } from "../../../src/core/evaluation/recall.js";
import { digitsBelow, thresholdFailures } from "../../../src/core/evaluation/thresholds.js";

// eval's thresholds, in-process: a threshold that cannot be checked is not met.

const attack = (stopped: number, total: number): RecallReport =>
  ({
    perLevel: { enforce: { stopped, total, recall: total === 0 ? null : stopped / total } },
  }) as unknown as RecallReport;

const benign = (over: Partial<BenignReport>): BenignReport =>
  ({
    sessions: 3,
    excluded: [],
    unreadableLines: 0,
    enforce: { ok: true, perWeek: 0.5, blocks: 1, calls: 100 },
    ...over,
  }) as BenignReport;

describe("digitsBelow", () => {
  it("shows as many digits as it takes to read below the limit, at least three", () => {
    expect(digitsBelow(49 / 58, 0.845)).toBe("0.8448");
    expect(digitsBelow(0.5, 0.9)).toBe("0.500");
    expect(digitsBelow(0.84499999, 0.845)).toBe("0.84499999");
    // Never below at any precision: the value as JavaScript writes it.
    expect(digitsBelow(0.845, 0.845)).toBe("0.845");
  });
});

describe("thresholdFailures", () => {
  it("passes thresholds that are met, and none asked is none failed", () => {
    expect(thresholdFailures({ minRecall: 0.8, maxBlocksPerWeek: 1 }, attack(49, 58), benign({}))).toEqual(
      [],
    );
    expect(thresholdFailures({}, undefined, undefined)).toEqual([]);
    expect(thresholdFailures({ minRecall: 0.5 }, attack(1, 2), undefined)).toEqual([]);
    expect(thresholdFailures({ maxBlocksPerWeek: 0.5 }, undefined, benign({}))).toEqual([]);
  });

  it("fails a recall below the minimum, in words that cannot contradict themselves", () => {
    expect(thresholdFailures({ minRecall: 0.845 }, attack(49, 58), undefined)).toEqual([
      "recall at enforce 49/58 = 0.8448 is below --min-recall 0.845",
    ]);
  });

  it("fails a recall threshold that cannot be checked", () => {
    expect(thresholdFailures({ minRecall: 0.8 }, undefined, benign({}))).toEqual([
      "--min-recall 0.8 cannot be checked: no attack scenarios were measured",
    ]);
    expect(thresholdFailures({ minRecall: 0.8 }, attack(0, 0), undefined)).toEqual([
      "--min-recall 0.8 cannot be checked: no visible attack scenario to measure",
    ]);
  });

  it("fails blocks per week above the maximum, or when they cannot be checked", () => {
    expect(
      thresholdFailures(
        { maxBlocksPerWeek: 1 },
        undefined,
        benign({ enforce: { ok: true, perWeek: 1.04, blocks: 2, calls: 9 } }),
      ),
    ).toEqual(["blocks per week at enforce 1.0 is above --max-blocks-per-week 1"]);
    expect(thresholdFailures({ maxBlocksPerWeek: 1 }, attack(1, 1), undefined)).toEqual([
      "--max-blocks-per-week 1 cannot be checked: no benign logs were measured",
    ]);
    expect(
      thresholdFailures(
        { maxBlocksPerWeek: 1 },
        undefined,
        benign({ sessions: 0, unreadableLines: 4, excluded: [{ sid: "a", reason: "" }] }),
      ),
    ).toEqual([
      "--max-blocks-per-week 1 cannot be checked: no session in the benign logs could be measured (4 unreadable log lines, 1 sessions excluded)",
    ]);
    expect(
      thresholdFailures(
        { maxBlocksPerWeek: 1 },
        undefined,
        benign({ enforce: { ok: false, blocks: 0, calls: 3, why: "under an hour of active time" } }),
      ),
    ).toEqual(["--max-blocks-per-week 1 cannot be checked: under an hour of active time"]);
    // Exactly at the maximum is within it.
    expect(
      thresholdFailures(
        { maxBlocksPerWeek: 1 },
        undefined,
        benign({ enforce: { ok: true, perWeek: 1, blocks: 1, calls: 9 } }),
      ),
    ).toEqual([]);
  });

  it("reports both thresholds when both fail", () => {
    expect(thresholdFailures({ minRecall: 0.9, maxBlocksPerWeek: 1 }, undefined, undefined)).toHaveLength(2);
  });
});
