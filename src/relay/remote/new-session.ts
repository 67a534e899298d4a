/**
 * Resuming after the server forgot a legacy session (404): the client's own initialize again,
 * under an id of the bridge's own, then its initialized. The answer never reaches the client:
 * it asked once and was answered once.
 */
import { isRecord } from "../../core/wire/jsonrpc.js";
import { idKey } from "./in-flight.js";
import type { Msg, WireTransport } from "./wire-transport.js";

export class NewSessions {
  /** The bridge's own requests (a new session's initialize), by id. */
  private readonly internal = new Map<string, (msg: Msg) => void>();
  private internalIds = 0;

  constructor(
    private readonly say: (line: string) => void,
    /** How long the bridge waits for its own requests (a new session's initialize). */
    private readonly timeoutMs: number,
  ) {}

  /** Takes a server's answer to one of the bridge's own requests; false when it is not one. */
  answer(m: Msg): boolean {
    const key = idKey(m["id"]);
    const own = this.internal.get(key);
    if (!own) return false;
    this.internal.delete(key);
    own(m);
    return true;
  }

  /** The client's initialize again under an id of the bridge's own, then its initialized. */
  async start(t: WireTransport, initialize: Msg, initialized: boolean): Promise<void> {
    this.say(
      "the server no longer knows this session (404); starting a new one with the client's initialize",
    );
    const id = `effectgate-session-${++this.internalIds}`;
    const answer = new Promise<Msg>((resolve, reject) => {
      const timer = setTimeout(() => {
        this.internal.delete(idKey(id));
        reject(new Error("no answer to the new session's initialize"));
      }, this.timeoutMs);
      this.internal.set(idKey(id), (m) => {
        clearTimeout(timer);
        resolve(m);
      });
    });
    await t.send({ ...initialize, id });
    const m = await answer;
    const result = isRecord(m["result"]) ? m["result"] : undefined;
    if (!result) throw new Error("the server refused the new session's initialize");
    if (typeof result["protocolVersion"] === "string") t.setProtocolVersion?.(result["protocolVersion"]);
    if (initialized) await t.send({ jsonrpc: "2.0", method: "notifications/initialized" });
  }
}
