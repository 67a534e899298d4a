import type { Arg, Run } from "./api.js";
import { exact, literal, optionOrOperand, startsOption, text } from "./arg-words.js";

// Programs that fetch and send over HTTP (curl, wget): their grammar, read here.

/** A URL's last name, the file curl -O and wget write. */
function remoteName(url: string): string {
  const path = url.replace(/^[a-z][a-z0-9+.-]*:\/\/[^/]*/i, "").replace(/[?#].*$/, "");
  const name = path.slice(path.lastIndexOf("/") + 1);
  return name === "" ? "index.html" : decodeURIComponentSafe(name);
}

function decodeURIComponentSafe(s: string): string {
  try {
    return decodeURIComponent(s);
  } catch {
    return s;
  }
}

const CURL_WRITE = new Set([
  "-o",
  "--output",
  "-c",
  "--cookie-jar",
  "-D",
  "--dump-header",
  "--trace",
  "--trace-ascii",
  "--stderr",
  "--libcurl",
  "--hsts",
  "--alt-svc",
  "--etag-save",
]);
const CURL_READ = new Set([
  "--cacert",
  "--capath",
  "--cert",
  "--key",
  "--netrc-file",
  "--etag-compare",
  "--proxy-cacert",
  "--proxy-cert",
  "--proxy-key",
  "--crlfile",
  "--pinnedpubkey",
]);
const CURL_SEND = new Set([
  "-d",
  "--data",
  "--data-ascii",
  "--data-binary",
  "--data-raw",
  "--data-urlencode",
  "--json",
  "-F",
  "--form",
  "--form-string",
]);
const CURL_TEXT = new Set(
  "-H --header -u --user -X --request -e --referer -A --user-agent -m --max-time --retry --retry-delay --retry-max-time --connect-timeout -r --range -C --continue-at -w --write-out -x --proxy -U --proxy-user --resolve --connect-to -Y --speed-limit -y --speed-time --limit-rate --max-redirs --max-filesize --output-dir -Q --quote --interface --dns-servers --proto --proto-redir --oauth2-bearer --aws-sigv4 --ciphers -E --cert-type --key-type --pass --noproxy -b --cookie -z --time-cond -t --telnet-option --local-port --keepalive-time --expect100-timeout --happy-eyeballs-timeout-ms --socks5 --socks4 --socks4a --socks5-hostname --preproxy --variable --url-query --request-target --tls-max --unix-socket --abstract-unix-socket --ftp-port -P".split(
    " ",
  ),
);

/** curl: URLs fetched; -o/-O files written with what was fetched; -d, -F, -T send data out. */
export function curl(run: Run, args: readonly Arg[]): void {
  const urls: Arg[] = [];
  let remote = false;
  let sends = false;
  let outputDir: Arg | undefined;
  const sent: Arg[] = [];
  const outputs: Arg[] = [];
  let fromStdin = false;
  const valueOf = (t: string, i: number, eq: number): { value: Arg | undefined; next: boolean } =>
    eq >= 0 ? { value: literal(t.slice(eq + 1)), next: false } : { value: args[i + 1], next: true };
  for (let i = 0; i < args.length; i++) {
    const t = optionOrOperand(run, args[i] as Arg, urls);
    if (t === false) return;
    if (t === undefined) continue;
    let name = t;
    let eq = -1;
    if (t.startsWith("--")) {
      eq = t.indexOf("=");
      name = eq < 0 ? t : t.slice(0, eq);
    } else if (t.length > 2) {
      // A cluster: flags, and maybe one option that takes the rest of the word (`-sSo/x`).
      let k = 1;
      for (; k < t.length; k++) {
        const opt = `-${t[k] as string}`;
        if (CURL_WRITE.has(opt) || CURL_SEND.has(opt) || CURL_TEXT.has(opt) || opt === "-T" || opt === "-K")
          break;
        if (opt === "-O") remote = true;
        if (opt === "-n") run.role("read", literal("~/.netrc"));
      }
      if (k >= t.length) continue;
      name = `-${t[k] as string}`;
      if (k + 1 < t.length) {
        const value = literal(t.slice(k + 1));
        takeCurl(name, value);
        continue;
      }
    }
    if (name === "-O" || name === "--remote-name" || name === "--remote-name-all") {
      remote = true;
      continue;
    }
    if (name === "--url") {
      const { value, next } = valueOf(t, i, eq);
      if (value !== undefined) urls.push(value);
      if (next) i++;
      continue;
    }
    if (name === "-K" || name === "--config") {
      const { value } = valueOf(t, i, eq);
      if (value !== undefined) run.role("read", value);
      return run.unknown("curl -K: options read from a file");
    }
    if (
      CURL_WRITE.has(name) ||
      CURL_SEND.has(name) ||
      CURL_TEXT.has(name) ||
      name === "-T" ||
      name === "--upload-file"
    ) {
      const { value, next } = valueOf(t, i, eq);
      if (value !== undefined) takeCurl(name, value);
      if (next) i++;
      continue;
    }
    if (CURL_READ.has(name)) {
      const { value, next } = valueOf(t, i, eq);
      if (value !== undefined) run.role("read", value);
      if (next) i++;
      continue;
    }
    if (name === "--netrc" || name === "-n") run.role("read", literal("~/.netrc"));
    // Other options are flags (-s, -L, -f, -k, -v, -i, --compressed, …).
  }
  function takeCurl(name: string, value: Arg): void {
    if (name === "-o" || name === "--output") outputs.push(value);
    else if (CURL_WRITE.has(name)) run.role("write", value);
    else if (name === "-T" || name === "--upload-file") {
      sends = true;
      if (text(value) === "-" || text(value) === ".") fromStdin = true;
      else sent.push(value);
    } else if (CURL_SEND.has(name)) {
      sends = true;
      // `@file` and `<file` (in -F) send a file's content; `@-` sends standard input. For
      // --data-urlencode, `name@file` does too.
      const v = text(value);
      const at =
        /^(?:[^=@<]*=)?[@<](.+)$/.exec(v) ?? (name === "--data-urlencode" ? /^[^=@]+@(.+)$/.exec(v) : null);
      if (at !== null && at[1] !== "-") sent.push(literal((at[1] as string).replace(/;.*$/, "")));
      else if (at !== null) fromStdin = true;
    } else if (name === "-X" || name === "--request") {
      if (!/^(?:GET|HEAD|OPTIONS)$/i.test(text(value))) sends = true;
    } else if (name === "-b" || name === "--cookie") {
      if (!text(value).includes("=")) run.role("read", value);
    } else if (
      (name === "-H" || name === "--header" || name === "-w" || name === "--write-out") &&
      text(value).startsWith("@")
    )
      run.role("read", literal(text(value).slice(1)));
    else if (name === "--output-dir") outputDir = value;
  }
  if (outputDir !== undefined) run.chdir(outputDir);
  for (const o of outputs) if (text(o) !== "-") run.role("write", o, "downloads into");
  for (const u of urls) {
    run.role(sends ? "send-url" : "url", u);
    if (remote && u.value.exact !== undefined)
      run.role("write", literal(remoteName(u.value.exact)), "downloads into");
  }
  for (const s of sent) run.role("send-data", s);
  if (fromStdin) run.sendsStdin();
  run.cls(sends ? "sends" : "fetch", sends ? "curl sends data out" : "curl fetches from the network");
}

const WGET_ONE = new Set(
  "-t --tries -T --timeout -w --wait --header -U --user-agent --user --password -l --level --limit-rate -Q --quota --referer --max-redirect --restrict-file-names -A --accept -R --reject -D --domains --exclude-domains -I --include-directories -X --exclude-directories --method --body-data -B --base".split(
    " ",
  ),
);

/** wget: URLs fetched and written into the working folder (or -O, -P); --post-* sends data. */
export function wget(run: Run, args: readonly Arg[]): void {
  const urls: Arg[] = [];
  let output: Arg | undefined;
  let sends = false;
  let tree = false;
  for (let i = 0; i < args.length; i++) {
    const a = args[i] as Arg;
    const t = exact(a);
    if (t === undefined || !t.startsWith("-") || t === "-") {
      if (t === undefined && startsOption(a)) return run.unknown("wget: an option known only at run time");
      urls.push(a);
      continue;
    }
    const eq = t.startsWith("--") ? t.indexOf("=") : -1;
    const name = eq < 0 ? (t.startsWith("--") ? t : t.slice(0, 2)) : t.slice(0, eq);
    const glued = !t.startsWith("--") && t.length > 2 ? literal(t.slice(2)) : undefined;
    const value = (): Arg | undefined => (eq >= 0 ? literal(t.slice(eq + 1)) : (glued ?? args[++i]));
    if (name === "-O" || name === "--output-document") output = value();
    else if (name === "-o" || name === "-a" || name === "--output-file" || name === "--append-output") {
      const v = value();
      if (v !== undefined) run.role("write", v);
    } else if (name === "-P" || name === "--directory-prefix") {
      const v = value();
      if (v !== undefined) run.chdir(v);
    } else if (name === "--post-data" || name === "--body-data") {
      value();
      sends = true;
    } else if (name === "--post-file" || name === "--body-file") {
      const v = value();
      sends = true;
      if (v !== undefined) run.role("send-data", v);
    } else if (name === "-i" || name === "--input-file") {
      const v = value();
      if (v !== undefined) run.role("read", v);
      return run.unknown("wget -i: URLs read from a file");
    } else if (name === "-e" || name === "--execute" || name === "--config")
      return run.unknown(`wget ${name}: settings from the command`);
    else if (name === "-r" || name === "--recursive" || name === "-m" || name === "--mirror") tree = true;
    else if (WGET_ONE.has(name)) {
      if (eq < 0 && glued === undefined) i++;
    }
  }
  for (const u of urls) {
    run.role(sends ? "send-url" : "url", u);
    if (output === undefined && !tree && u.value.exact !== undefined)
      run.role("write", literal(remoteName(u.value.exact)), "downloads into");
  }
  if (output !== undefined && text(output) !== "-") run.role("write", output, "downloads into");
  if (tree) run.role("place", literal("."), "downloads a tree into");
  run.cls(sends ? "sends" : "fetch", sends ? "wget sends data out" : "wget fetches from the network");
}
