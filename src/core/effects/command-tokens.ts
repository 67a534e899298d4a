/**
 * Path candidates inside a command string. A shell can read or write anything its words name,
 * so every word is judged as a path (`cat ~/.ssh/id_rsa`, `echo x > ~/.bashrc`, `--out=/etc/x`).
 * This is not a shell parser: it over-collects on purpose, since an extra harmless candidate
 * costs nothing and a missed one is a breach. Variables stay for the canonicaliser to expand.
 */
export function commandTokens(command: string): string[] {
  const out: string[] = [];
  for (const raw of command.split(/[\s;|&<>()`]+/)) {
    let word = raw.replace(/^["']+|["']+$/g, "").replace(/["']/g, "");
    // `$(cat x)` splits into `$` and `cat`; a lone `$` or `{`/`}` says nothing.
    word = word.replace(/^\$(?=$)/, "").replace(/^[{}]+$/, "");
    if (word === "") continue;
    const eq = word.indexOf("=");
    if (word.startsWith("-")) {
      // `-rf` is an option; `--output=/etc/passwd` carries a path after `=`.
      if (eq > 0 && eq < word.length - 1) out.push(word.slice(eq + 1));
      continue;
    }
    out.push(word);
    // `VAR=/path` assignments and `if=/dev/sda`-style operands: the value is a candidate too.
    if (eq > 0 && eq < word.length - 1) out.push(word.slice(eq + 1));
  }
  return out;
}
