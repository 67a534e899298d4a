/**
 * The frame effectgate writes instead of forwarding a refused request (docs/decisions/0020):
 * a result, never a protocol error, so the model sees the text and can adjust. For tools/call a
 * CallToolResult with isError and no structuredContent (isError is what lets SDK clients skip
 * outputSchema validation). resources/read and prompts/get results have no isError, so their
 * refusal takes the shape their result type requires (a text resource / a user message) and
 * carries isError as an extra member. Modern requests need `resultType`. The id is written back
 * with its JSON type intact.
 */

export interface RefusalMember {
  /** The request's id exactly as parsed (a string or number; null for an ill-formed call). */
  id: unknown;
  text: string;
  modern: boolean;
  /** The refused request's method and params, to pick the result shape; tools/call when absent. */
  method?: string;
  params?: unknown;
}

function resultFor(m: RefusalMember): Record<string, unknown> {
  const p = typeof m.params === "object" && m.params !== null ? (m.params as Record<string, unknown>) : {};
  if (m.method === "resources/read") {
    const uri = typeof p.uri === "string" ? p.uri : "effectgate:refused";
    return { contents: [{ uri, mimeType: "text/plain", text: m.text }], isError: true };
  }
  if (m.method === "prompts/get") {
    return {
      description: "refused by effectgate",
      messages: [{ role: "user", content: { type: "text", text: m.text } }],
      isError: true,
    };
  }
  return { content: [{ type: "text", text: m.text }], isError: true };
}

export function refusalMessage(m: RefusalMember): Record<string, unknown> {
  const result = resultFor(m);
  if (m.modern) result.resultType = "complete";
  return { jsonrpc: "2.0", id: m.id, result };
}

/** One line, no terminator: the caller adds the newline. */
export function refusalFrame(m: RefusalMember): string {
  return JSON.stringify(refusalMessage(m));
}

/** A batch is answered as a batch: one array frame with a refusal per request member. */
export function batchRefusalFrame(members: readonly RefusalMember[]): string {
  return JSON.stringify(members.map(refusalMessage));
}
