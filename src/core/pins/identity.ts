/**
 * Which lock entry a server uses: `--name` when given, else its argv joined by spaces, each
 * word that is not plain (spaces, quotes, empty) written as a JSON string. The same server
 * started with a different argv is a different identity unless it is named. Apart from the
 * lock's reader, so that the relay's start path names a server without loading its schemas.
 */
export function identityFor(name: string | undefined, argv: readonly string[]): string {
  if (name !== undefined && name !== "") return name;
  return argv.map((a) => (/^[A-Za-z0-9_./:@%+=,~-]+$/.test(a) ? a : JSON.stringify(a))).join(" ");
}
