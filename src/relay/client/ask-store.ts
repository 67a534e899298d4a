/**
 * Questions that wait out of band, and the grants that answer them. When nobody can be asked in
 * the chat (the client did not declare elicitation, or the session is 2026-07-28), the relay writes the question under EFFECTGATE_HOME/asks/pending and
 * refuses the call with its id; `effectgate allow ID` (in a terminal, by a person) turns it into
 * a grant under asks/grants, bound to the question's effect key and an expiry. The relay checks
 * the grants before it asks anything, so the model's retry of exactly that call goes through;
 * a call with any other effect has another key and is asked about anew
 * (docs/decisions/0105-out-of-band-questions.md). Nothing here is reachable by the model: the
 * folder is owner-only, and effectgate's own files are denied to every guarded server (0068).
 */
import { randomBytes } from "node:crypto";
import { join } from "node:path";
import { z } from "zod";
import {
  privateFolder,
  readPrivateJson,
  recordNames,
  removeRecord,
  writePrivateJson,
} from "../../platform/private-records.js";
import type { DesktopAsker } from "./desktop-ask.js";
import type { ProjectGrantBook } from "../gates/project-grant-book.js";

/** How long a question waits for `effectgate allow` before it is gone. */
export const PENDING_TTL_MS = 15 * 60 * 1000;
/** How long a grant for one call (`allow ID` without `--for`) waits for the retry. */
export const ONE_USE_TTL_MS = 15 * 60 * 1000;
/** The longest `--for` a grant may have: longer answers are remembered in the project. */
export const MAX_GRANT_MS = 24 * 60 * 60 * 1000;

export const ASK_ID = /^[0-9a-f]{8}$/;

const Entry = z.object({ verb: z.string(), target: z.string() });

const PendingSchema = z.object({
  id: z.string().regex(ASK_ID),
  key: z.string(),
  created: z.number(),
  expires: z.number(),
  server: z.string(),
  method: z.string(),
  tool: z.string(),
  effects: z.array(Entry),
  rule: z.string().nullable(),
  reason: z.string(),
  question: z.string(),
  pid: z.number(),
  cwd: z.string(),
});
export type PendingQuestion = z.infer<typeof PendingSchema>;

const GrantSchema = z.object({
  id: z.string().regex(ASK_ID),
  key: z.string(),
  created: z.number(),
  expires: z.number(),
  /** `once`: used by the first call it fits; `until-expiry`: every call it fits until then. */
  uses: z.enum(["once", "until-expiry"]),
  /** What it allows, as the question named it: `effectgate allow --list` shows it. */
  tool: z.string().optional(),
  server: z.string().optional(),
  effects: z.array(Entry).optional(),
});
export type Grant = z.infer<typeof GrantSchema>;

export type NewQuestion = Omit<PendingQuestion, "id" | "created" | "expires">;

/** What the relay needs to ask out of band: the store, and the server as grants name it. */
export interface OutOfBand {
  /** Opened on the first question: the store's schemas (zod) stay off the start path (0107). */
  store: () => Promise<AskStore>;
  /** The server's identity: its `--name`, else its command line (as pins name it). */
  server: string;
  /** Desktop dialogs, when the user opted in (decision 0126); loaded on the first question. */
  desktop?: () => Promise<DesktopAsker>;
  /** Where a yes for "always in this project" is written (decision 0134). */
  project?: ProjectGrantBook;
}

export class AskStore {
  readonly pendingDir: string;
  readonly grantsDir: string;

  constructor(
    home: string,
    private readonly now: () => number = Date.now,
  ) {
    this.pendingDir = join(home, "asks", "pending");
    this.grantsDir = join(home, "asks", "grants");
  }

  /** Why the folder cannot be used, or undefined. */
  private ready(dir: string): string | undefined {
    const why = privateFolder(join(dir, ".."));
    return why ?? privateFolder(dir);
  }

  /** The question waits under an id; the same effect already waiting keeps its id. */
  addPending(q: NewQuestion): PendingQuestion {
    const why = this.ready(this.pendingDir);
    if (why !== undefined)
      throw new Error(`${this.pendingDir}: expected a folder only you can use, got ${why}`);
    const waiting = this.listPending().find((p) => p.key === q.key);
    if (waiting) return waiting;
    const t = this.now();
    const entry: PendingQuestion = {
      ...q,
      id: randomBytes(4).toString("hex"),
      created: t,
      expires: t + PENDING_TTL_MS,
    };
    writePrivateJson(this.pendingDir, `${entry.id}.json`, entry);
    return entry;
  }

  /** Every question still waiting, oldest first; expired ones are removed. */
  listPending(): PendingQuestion[] {
    return this.read(this.pendingDir, PendingSchema).sort((a, b) => a.created - b.created);
  }

  /** Answers a waiting question: a grant for its effect, once or for `forMs`. */
  grant(id: string, forMs?: number): Grant {
    const q = this.listPending().find((p) => p.id === id);
    if (!q) throw new Error(`no question waits as ${id}`);
    const why = this.ready(this.grantsDir);
    if (why !== undefined)
      throw new Error(`${this.grantsDir}: expected a folder only you can use, got ${why}`);
    const t = this.now();
    const what = { tool: q.tool, server: q.server, effects: q.effects };
    const grant: Grant =
      forMs === undefined
        ? { id, key: q.key, created: t, expires: t + ONE_USE_TTL_MS, uses: "once", ...what }
        : {
            id,
            key: q.key,
            created: t,
            expires: t + Math.min(forMs, MAX_GRANT_MS),
            uses: "until-expiry",
            ...what,
          };
    writePrivateJson(this.grantsDir, `${id}.json`, grant);
    removeRecord(join(this.pendingDir, `${id}.json`));
    return grant;
  }

  /** Drops a waiting question unanswered (`allow` was told no). */
  dropPending(id: string): boolean {
    return removeRecord(join(this.pendingDir, `${id}.json`));
  }

  /** Every grant not yet expired or used, oldest first. */
  listGrants(): Grant[] {
    return this.read(this.grantsDir, GrantSchema).sort((a, b) => a.created - b.created);
  }

  /** A grant that fits this effect key, used up when it is for one call. */
  takeGrant(key: string): Grant | undefined {
    for (const g of this.read(this.grantsDir, GrantSchema)) {
      if (g.key !== key) continue;
      if (g.uses === "until-expiry") return g;
      // Another relay may take the same one-use grant at the same moment: whoever removes it has it.
      if (removeRecord(join(this.grantsDir, `${g.id}.json`))) return g;
    }
    return undefined;
  }

  private read<T extends { id: string; expires: number }>(dir: string, schema: z.ZodType<T>): T[] {
    const t = this.now();
    const out: T[] = [];
    for (const name of recordNames(dir)) {
      const path = join(dir, name);
      const parsed = schema.safeParse(readPrivateJson(path));
      if (!parsed.success || `${parsed.data.id}.json` !== name) continue;
      if (parsed.data.expires <= t) {
        removeRecord(path);
        continue;
      }
      out.push(parsed.data);
    }
    return out;
  }
}
