/**
 * Asking in a desktop dialog when the client cannot be asked in its chat (decisions 0126, 0127).
 * Opt-in: `ask.dialog: auto` in the policy or `--dialog auto`. The dialog's answer counts only as
 * an explicit yes; a dialog over the flood limit is never opened, and its call is refused. Where
 * no dialog can be shown the question waits for `effectgate allow`, as before (decision 0105);
 * on a Linux desktop with only `notify-send`, that wait is announced there.
 */
import { spawn } from "node:child_process";
import type { AskHow, AskReply } from "../../core/gate/gate.js";
import { DialogLimiter } from "../../core/gate/dialog-limit.js";
import type { Platform } from "../../core/types.js";
import { desktopOffer, dialogCommand, runDialog, type DesktopOffer } from "../../platform/desktop-dialog.js";
import { askTimeoutMs } from "../session/constants.js";

/** `auto`: ask in a dialog where one can be shown; `off` (the default): never. */
export type DialogSetting = "auto" | "off";

export interface DesktopAskOptions {
  env: NodeJS.ProcessEnv;
  platform: Platform;
  record: (ev: string, data: Record<string, unknown>) => void;
  now?: () => number;
  /** What this machine can show, when the relay looked it up at start (for the log's header). */
  offer?: DesktopOffer;
}

export class DesktopAsker {
  /** What this machine can show, looked up at the first question. */
  private offer: DesktopOffer | undefined;
  private readonly limiter = new DialogLimiter();

  constructor(private readonly o: DesktopAskOptions) {
    this.offer = o.offer;
  }

  private get shown(): DesktopOffer {
    return (this.offer ??= desktopOffer(this.o.env, this.o.platform));
  }

  /**
   * The user's answer in a dialog; undefined when no dialog can be shown here (the caller then
   * lets the question wait out of band).
   */
  async ask(question: string, signal?: AbortSignal): Promise<[AskReply, AskHow] | undefined> {
    const offer = this.shown;
    if (!("ask" in offer)) return undefined;
    const turn = this.limiter.take((this.o.now ?? Date.now)());
    if (!turn.ok) {
      this.o.record("ask-dialog-answer", { tool: offer.ask.kind, answer: "refused", why: turn.why });
      return ["failed", { channel: "dialog", why: turn.why }];
    }
    try {
      const timeoutMs = askTimeoutMs(this.o.env);
      this.o.record("ask-dialog", { tool: offer.ask.kind, message: question, timeoutMs });
      const cmd = dialogCommand(offer.ask, question, timeoutMs / 1000);
      const answer = await runDialog(cmd, this.o.env, timeoutMs, signal);
      this.o.record("ask-dialog-answer", {
        tool: offer.ask.kind,
        answer: answer.yes ? "accept" : "decline",
        ...(answer.yes ? {} : { why: answer.why }),
      });
      return answer.yes
        ? ["accept", { channel: "dialog" }]
        : ["decline", { channel: "dialog", why: answer.why }];
    } finally {
      this.limiter.close();
    }
  }

  /** A question now waits for `effectgate allow ID`: said on the desktop when only notify-send can. */
  announcePending(id: string): void {
    const offer = this.shown;
    if (!("announce" in offer)) return;
    // notify-send cannot ask: it only says where to answer. Its text is argv, never a shell's, and
    // names nothing the server or the model chose (a notification daemon may read markup).
    const child = spawn(
      offer.announce,
      ["--app-name=effectgate", "effectgate holds a call", `To allow it, run: effectgate allow ${id}`],
      { env: this.o.env, stdio: "ignore", shell: false },
    );
    child.on("error", () => undefined);
    child.unref();
  }
}
