// How the judge reads a message a server sends on its own (a notification or a request).
/**
 * A server→client notification or request as the judge is shown it: its params read like an
 * answer's result, under its method. Log lines, progress messages, sampling prompts and questions
 * reach the user or the model as an answer's text does (docs/decisions/0070-a-cut-scan-taints.md).
 * Undefined when it carries nothing to read.
 */
export function serverMessageAsAnswer(
  method: string,
  params: unknown,
): { request: { method: string; params: undefined }; response: Record<string, unknown> } | undefined {
  if (params === undefined) return undefined;
  return { request: { method, params: undefined }, response: { result: params } };
}
