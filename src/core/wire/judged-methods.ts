/**
 * Methods whose requests are held for judgement: the one list the relay, `eval` and `check`
 * share. A request with any other method is relayed unjudged.
 */
export const JUDGED_METHODS: ReadonlySet<string> = new Set(["tools/call", "resources/read", "prompts/get"]);
