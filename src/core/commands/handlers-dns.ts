import type { Arg, Run } from "./api.js";
import { exact, literal, optionOrOperand, text } from "./arg-words.js";

// Programs that look a name up (dig, host, nslookup, drill, whois, getent hosts) or reach a host
// by its name (ping, traceroute, mtr). A name is a query that travels to whoever serves its
// domain, so a name that holds data sends that data there (decision 0125). A plain name is a
// lookup: a read of the network, not a send.

/** Options that take a value, by program family (ping's `-f`, `-q` and `-a` are flags; dig's are not). */
const LOOKUP_ONE = new Set("-b -c -f -k -p -q -t -x -y -N -R -W -m -i -s -w -T -z -h -Q".split(" "));
const PING_ONE = new Set("-c -i -w -W -s -I -l -t -p -m -M -Q -F -g -N -z -P -B".split(" "));
const PING_FAMILY = new Set(["ping", "ping6", "traceroute", "tracepath", "mtr"]);

/** Record types and classes: words of a query that are not names. */
const RR_WORDS =
  /^(?:a|aaaa|any|axfr|caa|cname|dnskey|ds|hinfo|https|ixfr|mx|naptr|ns|nsec3?|ptr|rrsig|soa|spf|srv|sshfp|svcb|tlsa|txt|in|ch|hs)$/i;
/** getent databases that resolve host names (the rest read local files only). */
const GETENT_HOSTS = /^(?:hosts|ahosts|ahostsv4|ahostsv6|networks)$/;
/** Programs whose answer is other people's text (TXT records, whois entries): a fetch. */
const LOOKUPS = new Set(["dig", "host", "nslookup", "drill", "whois"]);

/** Shortest label read as data: longer than a word, a CDN id or a punycode name. */
const DATA_LABEL = 24;

/** Whether a label of a literal name looks like encoded data (long, letters and digits mixed). */
const dataLabel = (label: string): boolean =>
  label.length >= DATA_LABEL && !label.startsWith("xn--") && /\d/.test(label) && /[a-z]/i.test(label);

/** The parts of a word the run decides (`$(…)`, backticks, `${X}`, `$X`), marked as NUL. */
const RUNTIME = /\$\([\s\S]*\)|`[\s\S]*`|\$\{[^}]*\}|\$[A-Za-z_]\w*|\$[0-9@*#?$!-]/g;

/**
 * The domain a name's query reaches, when the name carries data: the labels after the last part
 * made at run time or the last data-like label; "" when no domain of two labels follows. Undefined
 * for a plain literal name.
 */
function queriedDomain(a: Arg): string | undefined {
  const known = exact(a);
  const labels = (known ?? text(a).replace(RUNTIME, "\u0000")).split(".");
  let cut = -1;
  labels.forEach((l, i) => {
    if (l.includes("\u0000") || dataLabel(l)) cut = i;
  });
  if (known !== undefined && cut < 0 && known.length <= 253) return undefined;
  const rest = labels.slice(cut + 1).filter((l) => l !== "");
  return rest.length >= 2 && rest.every((l) => /^[a-z0-9_-]+$/i.test(l)) ? rest.join(".") : "";
}

/** dig, host, nslookup, drill, whois, getent, ping, traceroute, mtr: names looked up or reached. */
export function dns(run: Run, args: readonly Arg[]): void {
  const operands: Arg[] = [];
  let sends = false;
  for (let i = 0; i < args.length; i++) {
    const t = optionOrOperand(run, args[i] as Arg, operands);
    if (t === false) return;
    if (t === undefined || t.startsWith("--") || t.includes("=")) continue;
    const opt = t.slice(0, 2);
    const ping = PING_FAMILY.has(run.program);
    if (!(ping ? PING_ONE : LOOKUP_ONE).has(opt)) continue;
    const value = t.length > 2 ? literal(t.slice(2)) : args[++i];
    if (value === undefined) continue;
    // A file of names (dig -f, host -f) is sent name by name; -q and -x name what is looked up.
    if (opt === "-f" && !ping) {
      run.role("send-data", value, "looks up the names in");
      sends = true;
    } else if ((opt === "-q" || opt === "-x") && run.program === "dig") operands.push(value);
    else if (value.value.exact === undefined || (opt === "-p" && ping)) {
      // A value made at run time, or ping's pattern (bytes of each packet), carries data.
      run.role("host", literal(""), "sends data in its packets to");
      sends = true;
    }
  }
  let names = operands.filter((a) => {
    const w = exact(a);
    return (
      w === undefined || !(w.startsWith("@") || w.startsWith("+") || RR_WORDS.test(w) || /^\d+$/.test(w))
    );
  });
  if (run.program === "getent") {
    const db = exact(names[0]);
    if (db === undefined || !GETENT_HOSTS.test(db))
      return run.cls("reads", "getent reads this machine's databases");
    names = names.slice(1);
  }
  for (const a of names) {
    const domain = queriedDomain(a);
    if (domain === undefined) continue;
    sends = true;
    run.role("host", literal(domain), "sends data in a name it looks up to");
  }
  if (sends) return run.cls("sends", `${run.program} sends data in the names it looks up`);
  if (LOOKUPS.has(run.program)) return run.cls("fetch", `${run.program} looks a name up`);
  run.cls("reads", `${run.program} reaches a host by a name it shows`);
}
