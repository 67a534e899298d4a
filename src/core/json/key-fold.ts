/**
 * Member names as Go's encoding/json matches them to struct fields: without regard to case, with
 * Unicode simple folding (U+017F `ſ` matches `s`, U+212A Kelvin sign matches `k`), the last
 * matching member winning. Go MCP SDKs (mark3labs/mcp-go, modelcontextprotocol/go-sdk) read every
 * message that way, so `"Method"`, `"PARAMS"` or `"paramſ"` is a member they read and JSON.parse
 * keeps apart (docs/decisions/0063-every-reading-of-a-frame.md).
 */

/**
 * The folded form of a name: two names Go would match to one field fold to the same string.
 * Each code point is upper-cased then lower-cased, so `ſ` → `S` → `s` and `K` → `k`. This folds
 * a few names Go keeps apart (`ı`, `ß`); that only makes more names ambiguous, never fewer.
 */
export function foldKey(name: string): string {
  // ASCII names, the usual case, fold by lower-casing alone.
  // eslint-disable-next-line no-control-regex
  if (/^[\x00-\x7f]*$/.test(name)) return name.toLowerCase();
  let out = "";
  for (const ch of name) out += ch.toUpperCase().toLowerCase();
  return out;
}

/**
 * Members of `obj` whose names fold to one of `names` without being spelled exactly so: the
 * members a Go reader takes for those fields and JSON.parse's reader does not.
 */
export function foldVariants(obj: Record<string, unknown>, names: readonly string[]): string[] {
  const exact = new Set(names);
  let folded: Set<string> | undefined;
  const out: string[] = [];
  for (const key of Object.keys(obj)) {
    if (exact.has(key)) continue;
    folded ??= new Set(names.map(foldKey));
    if (folded.has(foldKey(key))) out.push(key);
  }
  return out;
}

/** Every value of `obj` under a name that folds to `name`, the exact spelling's first. */
export function foldedValues(obj: Record<string, unknown>, name: string): unknown[] {
  const out: unknown[] = Object.hasOwn(obj, name) ? [obj[name]] : [];
  for (const key of foldVariants(obj, [name])) out.push(obj[key]);
  return out;
}
