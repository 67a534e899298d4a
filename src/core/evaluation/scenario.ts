// The attack-scenario format (corpus/attack/*.yaml): one attack, its source, the messages of the
// session in order, and which message must be refused. Validated strictly so that a typo in a
// scenario is an error, not a silently easier test.
import { z } from "zod";

const Message = z.union([
  z.strictObject({
    c2s: z.record(z.string(), z.unknown()),
    harmful: z.literal(true).optional(),
    note: z.string().optional(),
  }),
  z.strictObject({ s2c: z.record(z.string(), z.unknown()), note: z.string().optional() }),
  /** A frame as raw text, for spellings JSON.parse would hide (duplicate keys). */
  z.strictObject({ c2s_raw: z.string(), harmful: z.literal(true).optional(), note: z.string().optional() }),
]);

export const Scenario = z
  .strictObject({
    id: z.string().regex(/^[a-z0-9][a-z0-9-]*$/, "lower-case words joined by -"),
    title: z.string().min(1),
    category: z.string().min(1),
    source: z.strictObject({ ref: z.string().min(1), what: z.string().min(1) }),
    platform: z.enum(["linux", "darwin", "win32"]),
    server: z.strictObject({ name: z.string().min(1), command: z.array(z.string()).min(1) }),
    /** Overrides of the synthetic machine: home, cwd, environment. */
    home: z.string().optional(),
    cwd: z.string().optional(),
    env: z.record(z.string(), z.string()).optional(),
    /** The resolver's view: absolute path → what it really is (symlinks, 8.3 short names). */
    links: z.record(z.string(), z.string()).optional(),
    /**
     * The relay ran with desktop dialogs on and could show one (decision 0126): at strict, a
     * client that cannot be asked in its chat is asked in the dialog instead of refused.
     */
    dialog: z.boolean().optional(),
    /** Tools as approved in the lock; when present, pins are checked. */
    approved: z.array(z.record(z.string(), z.unknown())).optional(),
    visible: z.boolean().default(true),
    why_invisible: z.string().optional(),
    messages: z.array(Message),
  })
  .superRefine((s, ctx) => {
    const harmful = s.messages.filter((m) => "harmful" in m && m.harmful === true).length;
    if (s.visible && harmful !== 1) {
      ctx.addIssue({
        code: "custom",
        path: ["messages"],
        message: `expected exactly one message marked harmful: true, got ${harmful}`,
      });
    }
    if (!s.visible && !s.why_invisible) {
      ctx.addIssue({
        code: "custom",
        path: ["why_invisible"],
        message: "expected a reason when visible is false, got none",
      });
    }
  });

export type Scenario = z.infer<typeof Scenario>;
export type ScenarioMessage = Scenario["messages"][number];

/** The synthetic machine a scenario runs on, unless it says otherwise. */
export function defaultMachine(platform: Scenario["platform"]): { home: string; cwd: string } {
  if (platform === "darwin") return { home: "/Users/user", cwd: "/Users/user/project" };
  if (platform === "win32") return { home: "C:\\Users\\user", cwd: "C:\\Users\\user\\project" };
  return { home: "/home/user", cwd: "/home/user/project" };
}
