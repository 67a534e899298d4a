/**
 * `--header 'Name: value'` for `effectgate --url`: static headers for servers that take an API
 * key. `${VAR}` in the value is replaced by that environment variable, so a key need not be
 * written in a client's config. Pure: the caller passes the environment as a lookup.
 */

/** RFC 9110 §5.1 token: what a header name may be. */
const TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;

/**
 * Headers the bridge itself owns: the transport derives them from the session, the message or
 * the body (and a static one would contradict them), or HTTP sets them.
 */
const OWNED = new Set([
  "accept",
  "connection",
  "content-length",
  "content-type",
  "host",
  "last-event-id",
  "mcp-method",
  "mcp-name",
  "mcp-protocol-version",
  "mcp-session-id",
  "transfer-encoding",
]);

export interface StaticHeader {
  name: string;
  value: string;
  /** The environment variables the value was built from (names only, for the log). */
  fromEnv: string[];
}

export type HeaderParse = { ok: true; header: StaticHeader } | { ok: false; error: string };

/** Reads one `--header` option; `env` answers a variable's value, undefined when unset. */
export function parseHeaderOption(text: string, env: (name: string) => string | undefined): HeaderParse {
  const colon = text.indexOf(":");
  if (colon <= 0)
    return { ok: false, error: `--header: expected "Name: value", got ${JSON.stringify(text)}` };
  const name = text.slice(0, colon).trim();
  if (!TOKEN.test(name))
    return {
      ok: false,
      error: `--header: expected a header name of letters, digits and !#$%&'*+-.^_\`|~, got ${JSON.stringify(name)}`,
    };
  if (OWNED.has(name.toLowerCase()) || name.toLowerCase().startsWith("mcp-param-"))
    return {
      ok: false,
      error: `--header: ${name} is set by effectgate from the session and the message; expected another header`,
    };
  const fromEnv: string[] = [];
  let missing: string | undefined;
  const value = text
    .slice(colon + 1)
    .trim()
    .replace(/\$\{([A-Za-z_][A-Za-z0-9_]*)\}/g, (_, v: string) => {
      const got = env(v);
      if (got === undefined) missing ??= v;
      fromEnv.push(v);
      return got ?? "";
    });
  if (missing !== undefined)
    return {
      ok: false,
      error: `--header ${name}: expected the environment variable ${missing} to be set, got nothing`,
    };
  // A line break would end the header and start another one the user never wrote.
  if (/[\r\n\0]/.test(value))
    return { ok: false, error: `--header ${name}: expected a value on one line, got a line break or NUL` };
  return { ok: true, header: { name, value, fromEnv: [...new Set(fromEnv)] } };
}

/**
 * The option as it may be logged: the name, and where the value came from, never the value.
 * Logs and stderr see this instead of the argv word.
 */
export function loggableHeaderOption(text: string): string {
  const colon = text.indexOf(":");
  if (colon <= 0) return "(unreadable --header)";
  const vars = [...text.slice(colon + 1).matchAll(/\$\{([A-Za-z_][A-Za-z0-9_]*)\}/g)].map((m) => m[1]);
  const from = vars.length > 0 ? `, built from $${vars.join(", $")}` : "";
  return `${text.slice(0, colon).trim()}: (value not logged${from})`;
}

/**
 * `--header-env 'Name=VAR'`: the header's whole value is the environment variable VAR, as it is.
 * What `install --remote` writes: the value stays out of the command line (which other users of
 * the machine can read) and out of any client's own `${…}` expansion of arguments.
 */
export function parseHeaderEnvOption(text: string, env: (name: string) => string | undefined): HeaderParse {
  const eq = text.indexOf("=");
  const name = eq > 0 ? text.slice(0, eq).trim() : "";
  const variable = eq > 0 ? text.slice(eq + 1).trim() : "";
  if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(variable) || name === "")
    return { ok: false, error: `--header-env: expected "Name=VARIABLE", got ${JSON.stringify(text)}` };
  const parsed = parseHeaderOption(`${name}: x`, () => undefined);
  if (!parsed.ok) return { ok: false, error: parsed.error.replace(/^--header/, "--header-env") };
  const value = env(variable);
  if (value === undefined)
    return {
      ok: false,
      error: `--header-env ${name}: expected the environment variable ${variable} to be set, got nothing`,
    };
  if (/[\r\n\0]/.test(value))
    return {
      ok: false,
      error: `--header-env ${name}: expected a value on one line, got a line break or NUL`,
    };
  return { ok: true, header: { name, value: value.trim(), fromEnv: [variable] } };
}
