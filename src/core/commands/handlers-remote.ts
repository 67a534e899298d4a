import type { Arg, Run } from "./api.js";
import { exact, literal, optionOrOperand, startsOption, text } from "./arg-words.js";

// Programs that reach another machine by its host (scp, rsync, ssh, nc, socat): their grammar, read here.

/**
 * `[user@]host:path` (not a drive `C:\x` or `C:/x`, not `./a:b`), `[user@][v6]:path`, or a URL
 * (`rsync://host/module`).
 */
const REMOTE = /^(?:(?![a-z]:[\\/])(?:[\w.-]+@)?(?:[\w.-]+|\[[\da-f:.%\w]+\]):|[a-z][\w+.-]*:\/\/)/i;
/** A URL names its own port, if any: a port given apart is not written into it. */
const URL_LIKE = /^[a-z][\w+.-]*:\/\//i;
/** scp options that take a value; the rest are flags (`-p` keeps times, `-T` skips a name check). */
const SCP_ONE = new Set("-c -D -F -i -J -l -o -P -S -X".split(" "));
/**
 * rsync options that take a value. Its short options are mostly flags that scp's are not:
 * `-p` keeps permissions, `-c` compares checksums, `-l` copies links, `-i` itemizes, `-o` owners.
 */
const RSYNC_ONE = new Set(
  "-B -e -f -M -T -@ --port --rsh --exclude --include --filter --files-from --log-file --backup-dir --partial-dir --suffix --chmod --chown --timeout --bwlimit --compare-dest --link-dest --copy-dest --temp-dir --rsync-path --max-size --min-size --exclude-from --include-from --block-size --remote-option --modify-window".split(
    " ",
  ),
);

/** The host part of a remote operand: `user@host:path` → `user@host`, a URL as it is. */
const remoteHost = (word: string): string => {
  if (URL_LIKE.test(word)) return word;
  const v6 = /^((?:[\w.-]+@)?\[[^\]]*\]):/.exec(word);
  return v6 !== null ? (v6[1] as string) : word.slice(0, word.indexOf(":"));
};

/** `host` with a port when one is given (`[v6]:port` for an IPv6 address; a URL as it is). */
const withPort = (host: string, port: string | undefined): string => {
  if (port === undefined || !/^\d+$/.test(port) || URL_LIKE.test(host)) return host;
  const bare = host.includes("@") ? host.slice(host.lastIndexOf("@") + 1) : host;
  return /:/.test(bare) && !bare.startsWith("[") ? `[${bare}]:${port}` : `${bare}:${port}`;
};

/** scp, rsync: a remote end sends or fetches; local sources are read, a local destination is written. */
export function remoteCopy(run: Run, args: readonly Arg[]): void {
  const operands: Arg[] = [];
  let port: string | undefined;
  for (let i = 0; i < args.length; i++) {
    const t = optionOrOperand(run, args[i] as Arg, operands);
    if (t === false) return;
    if (t === undefined) continue;
    const eq = t.indexOf("=");
    const name = eq >= 0 ? t.slice(0, eq) : t;
    if (name === "-e" || name === "--rsh" || name === "--rsync-path")
      return run.unknown(`${run.program} ${name}: runs a program`);
    const scp = run.program === "scp";
    if (
      scp &&
      name === "-o" &&
      /proxycommand|localcommand|permitlocalcommand/i.test(exact(args[i + 1]) ?? "ProxyCommand")
    )
      return run.unknown(`${run.program} -o ${exact(args[i + 1]) ?? ""}: runs a program`);
    if (scp && name === "-S") return run.unknown("scp -S: runs a program");
    if (scp && name === "-F") {
      // A config file may name a ProxyCommand: what it runs is not in the command.
      const f = args[i + 1];
      if (f !== undefined) run.role("read", f);
      return run.unknown("scp -F: settings read from a file");
    }
    if (name === "--files-from" || name === "--exclude-from" || name === "--include-from") {
      const f = eq >= 0 ? literal(t.slice(eq + 1)) : args[++i];
      if (f !== undefined) run.role("read", f);
      continue;
    }
    if (name === "--log-file") {
      const f = eq >= 0 ? literal(t.slice(eq + 1)) : args[++i];
      if (f !== undefined) run.role("write", f);
      continue;
    }
    // scp -P is the port; rsync -P is --partial --progress, a flag.
    if ((name === "-P" && scp) || name === "--port") {
      port = eq >= 0 ? t.slice(eq + 1) : exact(args[++i]);
      continue;
    }
    if (scp && /^-P\d+$/.test(name)) {
      port = name.slice(2);
      continue;
    }
    if ((scp ? SCP_ONE : RSYNC_ONE).has(name) && eq < 0) i++;
  }
  const target = operands.pop();
  if (target === undefined) return run.unknown(`${run.program} without operands`);
  const isRemote = (a: Arg) => REMOTE.test(text(a));
  const sources = operands;
  if (isRemote(target)) {
    for (const s of sources) if (!isRemote(s)) run.role("send-data", s, "sends");
    const host = remoteHost(text(target));
    run.role(
      "host",
      target.value.exact === undefined ? target : literal(withPort(host, port)),
      "sends files to",
    );
    return run.cls("sends", `${run.program} sends files to another machine`);
  }
  for (const s of sources) if (!isRemote(s)) run.role("source", s, "copies");
  run.role("place", target, "copies into");
  run.cls(sources.some(isRemote) ? "fetch" : "none", `${run.program} copies files`);
}

/** ssh, sftp, mosh options that take a value (ssh -p and sftp -P are the port). */
const SSH_ONE = new Set("-b -c -D -E -e -I -i -L -l -m -O -Q -R -S -W -w -B -s -P -p -F -o -J".split(" "));

/**
 * ssh, sftp, mosh: the destination (`[user@]host`, `ssh://user@host:port`, sftp's `host:path`) and
 * any jump hosts receive what the command sends: its remote command, and standard input.
 * Options that make ssh run a local program (ProxyCommand, LocalCommand) make it unknown.
 */
export function ssh(run: Run, args: readonly Arg[]): void {
  const portOption = run.program === "sftp" ? "-P" : "-p";
  // sftp's -p keeps times and modes: a flag there.
  const takesValue = (c: string) => SSH_ONE.has(`-${c}`) && !(c === "p" && run.program === "sftp");
  let port: string | undefined;
  let i = 0;
  for (; i < args.length; i++) {
    const a = args[i] as Arg;
    const t = exact(a);
    if (t === undefined) {
      if (startsOption(a)) return run.unknown(`${run.program}: an option known only at run time`);
      break;
    }
    if (t === "--") {
      i++;
      break;
    }
    if (!t.startsWith("-") || t === "-") break;
    if (t.startsWith("--")) {
      if (run.program !== "mosh")
        return run.unknown(`${run.program} ${t}: an option the catalogue does not know`);
      if (/^--(?:ssh|client|server)/.test(t)) return run.unknown(`mosh ${t}: runs a program`);
      continue;
    }
    // A cluster of flags, ending maybe in one option whose value is the rest or the next word.
    let k = 1;
    while (k < t.length && !takesValue(t[k] as string)) k++;
    if (k >= t.length) continue;
    const opt = `-${t[k] as string}`;
    const value = k + 1 < t.length ? t.slice(k + 1) : exact(args[++i]);
    if (value === undefined) return run.unknown(`${run.program} ${opt}: a value known only at run time`);
    if (opt === "-o" && /^\s*(?:proxycommand|localcommand|permitlocalcommand|knownhostscommand)/i.test(value))
      return run.unknown(`${run.program} -o ${value}: runs a program`);
    if (opt === "-o" && /^\s*port\s*[= ]\s*(\d+)/i.test(value)) port = /(\d+)/.exec(value)?.[1];
    else if (opt === "-F") {
      // A config file may name a ProxyCommand: what it runs is not in the command.
      run.role("read", literal(value));
      return run.unknown(`${run.program} -F: settings read from a file`);
    } else if (opt === "-J")
      for (const jump of value.split(",")) run.role("host", literal(jump), "connects through");
    else if (opt === "-b" && run.program === "sftp") run.role("read", literal(value));
    else if (opt === "-S" && run.program === "sftp") return run.unknown("sftp -S: runs a program");
    else if (opt === portOption) port = value;
  }
  const destination = args[i];
  if (destination === undefined) return run.cls("reads", `${run.program} prints about itself`);
  const word = text(destination);
  const host = run.program === "sftp" && REMOTE.test(word) && !URL_LIKE.test(word) ? remoteHost(word) : word;
  run.role("host", destination.value.exact === undefined ? destination : literal(withPort(host, port)));
  // The rest is a command the other machine runs; its words go there, and run nothing here.
  run.sendsStdin();
  run.cls("sends", `${run.program} talks to another machine`);
}

/** nc, ncat, netcat, telnet options that take a value. */
const NC_ONE = new Set(
  "-p -s -w -i -q -x -X -O -T -V -I -g -G -M -m -P -b --proxy --proxy-type --proxy-auth --source-port --source --wait --idle-timeout --proxy-dns --delay --max-conns --allow --allowfile --deny --denyfile".split(
    " ",
  ),
);
/** Options that run a program with the connection as its input and output. */
const NC_EXEC = new Set(["-e", "-c", "--exec", "--sh-exec", "--lua-exec"]);

/**
 * nc, ncat, netcat, telnet: `host port` receives standard input (a redirect names the file sent).
 * Listening (`-l`) serves whoever connects. A program run on the connection (`-e`, `-c`) is a
 * shell driven from the network.
 */
export function netcat(run: Run, args: readonly Arg[]): void {
  const operands: Arg[] = [];
  let listen = false;
  let unix = false;
  let runs: string | undefined;
  for (let i = 0; i < args.length; i++) {
    const t = optionOrOperand(run, args[i] as Arg, operands);
    if (t === false) return;
    if (t === undefined) continue;
    const eq = t.startsWith("--") ? t.indexOf("=") : -1;
    const name = eq >= 0 ? t.slice(0, eq) : t;
    if (name.startsWith("--")) {
      if (NC_EXEC.has(name)) runs = name;
      else if (name === "--listen") listen = true;
      else if (name === "--output" || name === "--hex-dump" || name === "--append-output") {
        const f = eq >= 0 ? literal(t.slice(eq + 1)) : args[++i];
        if (f !== undefined) run.role("write", f);
      } else if (NC_ONE.has(name)) {
        if (eq < 0) i++;
      } else if (
        !/^--(?:udp|sctp|verbose|nodns|send-only|recv-only|keep-open|crlf|ssl|no-shutdown|ipv4|ipv6|telnet|broker|chat|version|help)$/.test(
          name,
        )
      )
        return run.unknown(`${run.program} ${name}: an option the catalogue does not know`);
      continue;
    }
    // A cluster of flags, ending maybe in one option whose value is the rest or the next word.
    for (let k = 1; k < t.length; k++) {
      const opt = `-${t[k] as string}`;
      if (NC_EXEC.has(opt)) {
        runs = opt;
        if (k + 1 >= t.length) i++;
        break;
      }
      if (opt === "-l") listen = true;
      if (opt === "-U") unix = true;
      // ncat's -o and traditional nc's -o both write what passes to a file.
      if (opt === "-o") {
        const f = k + 1 < t.length ? literal(t.slice(k + 1)) : args[++i];
        if (f !== undefined) run.role("write", f);
        break;
      }
      if (NC_ONE.has(opt)) {
        if (k + 1 >= t.length) i++;
        break;
      }
    }
  }
  if (runs !== undefined)
    return run.cls("network-code", `${run.program} ${runs} runs a program driven from the network`);
  run.sendsStdin();
  if (listen) return run.cls("sends", `${run.program} listens and sends to whoever connects`);
  const [host, port] = operands;
  if (host === undefined) return run.cls("reads", `${run.program} prints about itself`);
  if (unix) run.role("read", host, "connects to the socket");
  else
    run.role(
      "host",
      host.value.exact === undefined || (port !== undefined && port.value.exact === undefined)
        ? host
        : literal(withPort(text(host), exact(port))),
    );
  run.cls("sends", `${run.program} sends data to another machine`);
}

/** socat address types that connect to `host:port` (SOCKS and PROXY name the proxy, then the target). */
const SOCAT_CONNECT =
  /^(?:tcp[46]?|udp[46]?|tcp-connect|tcp4-connect|tcp6-connect|udp-connect|udp4-connect|udp6-connect|udp-sendto|udp4-sendto|udp6-sendto|udp-datagram|sctp-connect|sctp4-connect|sctp6-connect|dccp-connect|openssl|openssl-connect|ssl|socks4a?|socks5|proxy|proxy-connect)$/;
/** Address types that make a program or shell the other end. */
const SOCAT_EXEC = /^(?:exec|system)$/;
/** Address types that wait for a connection or a datagram. */
const SOCAT_LISTEN = /-(?:listen|recv|recvfrom)$|^(?:openssl-listen|ssl-l)$/;
/** Address types of this process's own streams. */
const SOCAT_STDIO = /^(?:-|stdio|stdin|stdout|stderr|fd|readline)$/;

/** socat: two addresses joined. A network address receives the other end; a program there is driven from the network. */
export function socat(run: Run, args: readonly Arg[]): void {
  const addresses: Arg[] = [];
  for (let i = 0; i < args.length; i++) {
    const t = optionOrOperand(run, args[i] as Arg, addresses);
    if (t === false) return;
    if (t === "-lf") {
      const f = args[++i];
      if (f !== undefined) run.role("write", f);
    }
  }
  if (addresses.length === 0) return run.cls("reads", "socat prints about itself");
  let network = false;
  let runs = false;
  const hosts: string[] = [];
  for (const a of addresses) {
    const t = exact(a);
    if (t === undefined) return run.unknown("socat: an address known only at run time");
    const head = t.split(",")[0] as string;
    const colon = head.indexOf(":");
    const type = (colon < 0 ? head : head.slice(0, colon)).toLowerCase();
    const params = colon < 0 ? [] : (head.slice(colon + 1).match(/\[[^\]]*\]|[^:]+/g) ?? []);
    if (SOCAT_STDIO.test(type)) continue;
    if (SOCAT_EXEC.test(type)) runs = true;
    else if (SOCAT_LISTEN.test(type)) network = true;
    else if (SOCAT_CONNECT.test(type)) {
      network = true;
      const [h, p, q] = params;
      if (h === undefined) return run.unknown(`socat ${type}: an address without a host`);
      if (/^(?:socks|proxy)/.test(type)) {
        hosts.push(h);
        if (p !== undefined) hosts.push(withPort(p, q));
      } else hosts.push(withPort(h, p));
    } else return run.unknown(`socat ${type}: an address type the catalogue does not read`);
  }
  if (runs && network) return run.cls("network-code", "socat runs a program driven from the network");
  if (runs) return run.unknown("socat runs a program");
  for (const h of hosts) run.role("host", literal(h));
  run.sendsStdin();
  run.cls(
    network ? "sends" : "none",
    network ? "socat sends data to another machine" : "socat joins two streams",
  );
}
