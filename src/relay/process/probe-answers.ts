// What \`effectgate approve\`'s probe declares and answers as a client: every capability, so a
// server shows every tool it has (docs/decisions/0088), and what a client with nobody at the
// keyboard answers the server's own requests.

type Msg = Record<string, unknown>;

/**
 * Every capability a client may declare, so the server shows every tool it has for any client.
 * The experimental `tasks` part is what the reference server wants for its task-based tools.
 */
export const PROBE_CAPABILITIES = {
  roots: { listChanged: true },
  sampling: {},
  elicitation: { form: {}, url: {} },
  tasks: { requests: { sampling: { createMessage: {} }, elicitation: { create: {} } } },
} as const;

/** A request from the server, answered as a client with nobody at the keyboard would. */
export function answerServerRequest(method: string): { result: Msg } | { error: Msg } {
  switch (method) {
    case "ping":
      return { result: {} };
    case "roots/list":
      return { result: { roots: [] } };
    case "elicitation/create":
      return { result: { action: "decline" } };
    case "sampling/createMessage":
      // MCP's code for a request the user rejected.
      return {
        error: { code: -1, message: "effectgate approve does not sample: nobody is asked while it probes" },
      };
    default:
      return { error: { code: -32601, message: `effectgate approve does not answer ${method}` } };
  }
}
