/**
 * Path candidates inside a command string. A shell can read or write anything its words name,
 * so every word is judged as a path (`cat ~/.ssh/id_rsa`, `echo x > ~/.bashrc`, `--out=/etc/x`).
 * This is not a shell parser: it over-collects on purpose, since an extra harmless candidate
 * costs nothing and a missed one is a breach. Variables stay for the canonicaliser to expand.
 */
export function commandTokens(command: string): string[] {
  const out: string[] = [];
  for (const raw of command.split(/[\s;|&<>()`]+/)) {
    // Quotes only group words; `"~/.ssh"x` and `it's` name what they spell without them.
    let word = raw.replace(/["']/g, "");
    // `$(cat x)` splits into `$` and `cat`; a lone `$` or `{`/`}` says nothing.
    word = word.replace(/^\$(?=$)/, "").replace(/^[{}]+$/, "");
    if (word === "") continue;
    // `-rf` is an option, not a path; every other word is a candidate.
    if (!word.startsWith("-")) out.push(word);
    // `--output=/etc/passwd`, `VAR=/path` and `if=/dev/sda`: the value after `=` is a candidate too.
    const eq = word.indexOf("=");
    if (eq > 0 && eq < word.length - 1) out.push(word.slice(eq + 1));
  }
  return out;
}
