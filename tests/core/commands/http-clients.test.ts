import { describe, expect, it } from "vitest";
import { effectLines } from "../../helpers/effect-lines.js";

// curl and wget (src/core/commands/handlers-http.ts): URLs fetched, files written with what was
// fetched (marked downloaded), files read, and what is sent out (a send-url, and the files whose
// content goes with it, marked sent). Each row is the whole reading.

describe("curl: the file -O names after the URL", () => {
  it.each([
    // the last name, decoded, without the query
    [
      "curl -O 'https://x.example/a%20b.txt?q=1'",
      [
        "url https://x.example/a%20b.txt?q=1: fetches",
        "write a b.txt: downloads into (downloaded)",
        "class fetch: curl fetches from the network",
      ],
    ],
    [
      "curl -O 'https://x.example/p/f.sh#frag'",
      [
        "url https://x.example/p/f.sh#frag: fetches",
        "write f.sh: downloads into (downloaded)",
        "class fetch: curl fetches from the network",
      ],
    ],
    // an escape that does not decode is kept as written
    [
      "curl -O https://x.example/a%ZZb",
      [
        "url https://x.example/a%ZZb: fetches",
        "write a%ZZb: downloads into (downloaded)",
        "class fetch: curl fetches from the network",
      ],
    ],
    // a URL ending in a slash saves index.html
    [
      "curl -O https://x.example/dir/",
      [
        "url https://x.example/dir/: fetches",
        "write index.html: downloads into (downloaded)",
        "class fetch: curl fetches from the network",
      ],
    ],
    [
      "curl --remote-name https://x.example/a",
      [
        "url https://x.example/a: fetches",
        "write a: downloads into (downloaded)",
        "class fetch: curl fetches from the network",
      ],
    ],
    [
      "curl --remote-name-all https://x.example/a https://x.example/b",
      [
        "url https://x.example/a: fetches",
        "write a: downloads into (downloaded)",
        "url https://x.example/b: fetches",
        "write b: downloads into (downloaded)",
        "class fetch: curl fetches from the network",
      ],
    ],
    // a URL known only at run time names no file
    ["curl -O $URL", ["url $URL: fetches", "class fetch: curl fetches from the network"]],
    // --output-dir is where -O and -o write
    [
      "curl --output-dir dl -O https://x.example/f.txt",
      [
        "url https://x.example/f.txt: fetches",
        "write dl/f.txt: downloads into (downloaded)",
        "class fetch: curl fetches from the network",
      ],
    ],
    [
      "curl --output-dir=dl -o f.txt https://x.example/f",
      [
        "write dl/f.txt: downloads into (downloaded)",
        "url https://x.example/f: fetches",
        "class fetch: curl fetches from the network",
      ],
    ],
  ] as [string, string[]][])("%s", (command, lines) => {
    expect(effectLines(command)).toEqual(lines);
  });
});

describe("curl: a cluster of flags may end in an option that takes the rest of the word or the next", () => {
  it.each([
    // flags only
    [
      "curl -sSL https://x.example/f",
      ["url https://x.example/f: fetches", "class fetch: curl fetches from the network"],
    ],
    // -s alone, and a long flag: nothing read or written
    [
      "curl -s --compressed https://x.example",
      ["url https://x.example: fetches", "class fetch: curl fetches from the network"],
    ],
    [
      "curl -ss https://x.example",
      ["url https://x.example: fetches", "class fetch: curl fetches from the network"],
    ],
    // -O inside a cluster
    [
      "curl -sSO https://x.example/f.sh",
      [
        "url https://x.example/f.sh: fetches",
        "write f.sh: downloads into (downloaded)",
        "class fetch: curl fetches from the network",
      ],
    ],
    // the value glued to the option
    [
      "curl -sSo/tmp/out https://x.example/f",
      [
        "write /tmp/out: downloads into (downloaded)",
        "url https://x.example/f: fetches",
        "class fetch: curl fetches from the network",
      ],
    ],
    // the value in the next word
    [
      "curl -sSLo out.txt https://x.example/f",
      [
        "write out.txt: downloads into (downloaded)",
        "url https://x.example/f: fetches",
        "class fetch: curl fetches from the network",
      ],
    ],
    [
      "curl -sd @.env https://x.example/f",
      [
        "url https://x.example/f: sends to",
        "send https://x.example/f: sends data to",
        "read .env: sends the content of (sent)",
        "class sends: curl sends a file's content out",
      ],
    ],
    [
      "curl -sT r.txt https://x.example/",
      [
        "url https://x.example/: sends to",
        "send https://x.example/: sends data to",
        "read r.txt: sends the content of (sent)",
        "class sends: curl sends a file's content out",
      ],
    ],
    // -H takes the rest: X-A:1 is a header, not -X
    [
      "curl -sHX-A:1 https://x.example",
      ["url https://x.example: fetches", "class fetch: curl fetches from the network"],
    ],
    [
      "curl -sH @h.txt https://x.example",
      ["read h.txt: reads", "url https://x.example: fetches", "class fetch: curl fetches from the network"],
    ],
    [
      "curl -sc jar.txt https://x.example",
      [
        "write jar.txt: writes",
        "url https://x.example: fetches",
        "class fetch: curl fetches from the network",
      ],
    ],
    [
      "curl -sX DELETE https://x.example",
      [
        "url https://x.example: sends to",
        "send https://x.example: sends data to",
        "class sends: curl sends data out",
      ],
    ],
    [
      "curl -sK cfg.txt",
      ["read cfg.txt: reads", "class unknown: curl -K: options read from a file", "legacy curl -sK cfg.txt"],
    ],
  ] as [string, string[]][])("%s", (command, lines) => {
    expect(effectLines(command)).toEqual(lines);
  });
});

describe("curl: URLs, settings files and files read", () => {
  it.each([
    [
      "curl --url https://x.example/u",
      ["url https://x.example/u: fetches", "class fetch: curl fetches from the network"],
    ],
    [
      "curl --url=https://x.example/u",
      ["url https://x.example/u: fetches", "class fetch: curl fetches from the network"],
    ],
    // --url with nothing after it names no URL
    ["curl --url", ["class fetch: curl fetches from the network"]],
    // an option's value is not a URL
    [
      "curl --max-time 5 https://x.example",
      ["url https://x.example: fetches", "class fetch: curl fetches from the network"],
    ],
    // options read from a file: what they do is not in the command
    [
      "curl -K cfg.txt https://x.example",
      [
        "read cfg.txt: reads",
        "class unknown: curl -K: options read from a file",
        "legacy curl -K cfg.txt https://x.example",
      ],
    ],
    [
      "curl --config=cfg.txt",
      [
        "read cfg.txt: reads",
        "class unknown: curl -K: options read from a file",
        "legacy curl --config=cfg.txt",
      ],
    ],
    ["curl -K", ["class unknown: curl -K: options read from a file", "legacy curl -K"]],
    [
      "curl --cacert ca.pem https://x.example",
      ["read ca.pem: reads", "url https://x.example: fetches", "class fetch: curl fetches from the network"],
    ],
    [
      "curl --cert=c.pem https://x.example",
      ["read c.pem: reads", "url https://x.example: fetches", "class fetch: curl fetches from the network"],
    ],
    ["curl --key", ["class fetch: curl fetches from the network"]],
    [
      "curl -n https://x.example",
      [
        "read ~/.netrc: reads",
        "url https://x.example: fetches",
        "class fetch: curl fetches from the network",
      ],
    ],
    [
      // A flag inside a cluster counts as it does alone: -sn reads ~/.netrc too.
      "curl -sn https://x.example",
      [
        "read ~/.netrc: reads",
        "url https://x.example: fetches",
        "class fetch: curl fetches from the network",
      ],
    ],
    [
      "curl -nLo page.html https://x.example",
      [
        "read ~/.netrc: reads",
        "write page.html: downloads into (downloaded)",
        "url https://x.example: fetches",
        "class fetch: curl fetches from the network",
      ],
    ],
    [
      "curl --netrc https://x.example",
      [
        "read ~/.netrc: reads",
        "url https://x.example: fetches",
        "class fetch: curl fetches from the network",
      ],
    ],
    // headers and the output format may be read from a file
    [
      "curl -H @headers.txt https://x.example",
      [
        "read headers.txt: reads",
        "url https://x.example: fetches",
        "class fetch: curl fetches from the network",
      ],
    ],
    [
      "curl --header=@h.txt https://x.example",
      ["read h.txt: reads", "url https://x.example: fetches", "class fetch: curl fetches from the network"],
    ],
    [
      "curl -w @fmt.txt https://x.example",
      ["read fmt.txt: reads", "url https://x.example: fetches", "class fetch: curl fetches from the network"],
    ],
    [
      "curl --write-out @fmt.txt https://x.example",
      ["read fmt.txt: reads", "url https://x.example: fetches", "class fetch: curl fetches from the network"],
    ],
    // an @ inside a header is text
    [
      "curl -H 'X: @y' https://x.example",
      ["url https://x.example: fetches", "class fetch: curl fetches from the network"],
    ],
    [
      "curl -A 'agent @x' https://x.example",
      ["url https://x.example: fetches", "class fetch: curl fetches from the network"],
    ],
    // a cookie without = is a file of cookies
    [
      "curl -b cookies.txt https://x.example",
      [
        "read cookies.txt: reads",
        "url https://x.example: fetches",
        "class fetch: curl fetches from the network",
      ],
    ],
    [
      "curl --cookie 'a=b' https://x.example",
      ["url https://x.example: fetches", "class fetch: curl fetches from the network"],
    ],
    [
      "curl -$F https://x.example",
      ["class unknown: curl: an option known only at run time", "legacy curl -$F https://x.example"],
    ],
  ] as [string, string[]][])("%s", (command, lines) => {
    expect(effectLines(command)).toEqual(lines);
  });
});

describe("curl: files written", () => {
  it.each([
    [
      "curl -c jar.txt https://x.example",
      [
        "write jar.txt: writes",
        "url https://x.example: fetches",
        "class fetch: curl fetches from the network",
      ],
    ],
    [
      "curl --dump-header=h.txt https://x.example",
      ["write h.txt: writes", "url https://x.example: fetches", "class fetch: curl fetches from the network"],
    ],
    [
      "curl --trace t.log https://x.example",
      ["write t.log: writes", "url https://x.example: fetches", "class fetch: curl fetches from the network"],
    ],
    // - is standard output
    [
      "curl -o - https://x.example",
      ["url https://x.example: fetches", "class fetch: curl fetches from the network"],
    ],
    ["curl -o", ["class fetch: curl fetches from the network"]],
  ] as [string, string[]][])("%s", (command, lines) => {
    expect(effectLines(command)).toEqual(lines);
  });
});

describe("curl: what is sent", () => {
  it.each([
    // methods that send no body
    [
      "curl -X GET https://x.example",
      ["url https://x.example: fetches", "class fetch: curl fetches from the network"],
    ],
    [
      "curl --request=head https://x.example",
      ["url https://x.example: fetches", "class fetch: curl fetches from the network"],
    ],
    [
      "curl -X OPTIONS https://x.example",
      ["url https://x.example: fetches", "class fetch: curl fetches from the network"],
    ],
    [
      "curl -X DELETE https://x.example",
      [
        "url https://x.example: sends to",
        "send https://x.example: sends data to",
        "class sends: curl sends data out",
      ],
    ],
    // data in the command: a send, no file
    [
      "curl --data 'a=b' https://x.example",
      [
        "url https://x.example: sends to",
        "send https://x.example: sends data to",
        "class sends: curl sends data out",
      ],
    ],
    // a file's content, without its ;type=
    [
      "curl -F 'f=<notes.txt;type=text/plain' https://x.example",
      [
        "url https://x.example: sends to",
        "send https://x.example: sends data to",
        "read notes.txt: sends the content of (sent)",
        "class sends: curl sends a file's content out",
      ],
    ],
    [
      "curl --upload-file=r.txt https://x.example/",
      [
        "url https://x.example/: sends to",
        "send https://x.example/: sends data to",
        "read r.txt: sends the content of (sent)",
        "class sends: curl sends a file's content out",
      ],
    ],
    // standard input: the file redirected there is sent
    [
      "curl -d @- https://x.example < notes.txt",
      [
        "read notes.txt: reads from",
        "url https://x.example: sends to",
        "send https://x.example: sends data to",
        "read notes.txt: sends the content of (sent)",
        "class sends: curl sends a file's content out",
      ],
    ],
    [
      "curl -T - https://x.example/ < notes.txt",
      [
        "read notes.txt: reads from",
        "url https://x.example/: sends to",
        "send https://x.example/: sends data to",
        "read notes.txt: sends the content of (sent)",
        "class sends: curl sends a file's content out",
      ],
    ],
    [
      "curl -T . https://x.example/ < notes.txt",
      [
        "read notes.txt: reads from",
        "url https://x.example/: sends to",
        "send https://x.example/: sends data to",
        "read notes.txt: sends the content of (sent)",
        "class sends: curl sends a file's content out",
      ],
    ],
  ] as [string, string[]][])("%s", (command, lines) => {
    expect(effectLines(command)).toEqual(lines);
  });
});

describe("wget: the file it writes", () => {
  it.each([
    [
      "wget https://x.example/f.tgz",
      [
        "url https://x.example/f.tgz: fetches",
        "write f.tgz: downloads into (downloaded)",
        "class fetch: wget fetches from the network",
      ],
    ],
    [
      "wget https://x.example/dir/",
      [
        "url https://x.example/dir/: fetches",
        "write index.html: downloads into (downloaded)",
        "class fetch: wget fetches from the network",
      ],
    ],
    [
      "wget -q https://x.example/a%20b.txt",
      [
        "url https://x.example/a%20b.txt: fetches",
        "write a b.txt: downloads into (downloaded)",
        "class fetch: wget fetches from the network",
      ],
    ],
    // a name known only at run time names no file
    [
      "wget https://x.example/$NAME",
      ["url https://x.example/$NAME: fetches", "class fetch: wget fetches from the network"],
    ],
    [
      "wget -O out.html https://x.example/",
      [
        "url https://x.example/: fetches",
        "write out.html: downloads into (downloaded)",
        "class fetch: wget fetches from the network",
      ],
    ],
    [
      "wget -Oout.html https://x.example/",
      [
        "url https://x.example/: fetches",
        "write out.html: downloads into (downloaded)",
        "class fetch: wget fetches from the network",
      ],
    ],
    [
      "wget --output-document=out.html https://x.example/",
      [
        "url https://x.example/: fetches",
        "write out.html: downloads into (downloaded)",
        "class fetch: wget fetches from the network",
      ],
    ],
    [
      "wget --output-document out.html https://x.example/",
      [
        "url https://x.example/: fetches",
        "write out.html: downloads into (downloaded)",
        "class fetch: wget fetches from the network",
      ],
    ],
    [
      "wget -O - https://x.example/",
      ["url https://x.example/: fetches", "class fetch: wget fetches from the network"],
    ],
    // the log is written too
    [
      "wget -o log.txt https://x.example/f",
      [
        "write log.txt: writes",
        "url https://x.example/f: fetches",
        "write f: downloads into (downloaded)",
        "class fetch: wget fetches from the network",
      ],
    ],
    [
      "wget -a log.txt https://x.example/f",
      [
        "write log.txt: writes",
        "url https://x.example/f: fetches",
        "write f: downloads into (downloaded)",
        "class fetch: wget fetches from the network",
      ],
    ],
    [
      "wget --output-file=log.txt https://x.example/f",
      [
        "write log.txt: writes",
        "url https://x.example/f: fetches",
        "write f: downloads into (downloaded)",
        "class fetch: wget fetches from the network",
      ],
    ],
    [
      "wget --append-output log.txt https://x.example/f",
      [
        "write log.txt: writes",
        "url https://x.example/f: fetches",
        "write f: downloads into (downloaded)",
        "class fetch: wget fetches from the network",
      ],
    ],
    ["wget -o", ["class fetch: wget fetches from the network"]],
    [
      "wget -P dl https://x.example/f",
      [
        "url https://x.example/f: fetches",
        "write dl/f: downloads into (downloaded)",
        "class fetch: wget fetches from the network",
      ],
    ],
    [
      "wget -Pdl https://x.example/f",
      [
        "url https://x.example/f: fetches",
        "write dl/f: downloads into (downloaded)",
        "class fetch: wget fetches from the network",
      ],
    ],
    [
      "wget --directory-prefix=dl https://x.example/f",
      [
        "url https://x.example/f: fetches",
        "write dl/f: downloads into (downloaded)",
        "class fetch: wget fetches from the network",
      ],
    ],
    ["wget -P", ["class fetch: wget fetches from the network"]],
    // a tree: the folder is placed, no one file named
    [
      "wget -r https://x.example/",
      [
        "url https://x.example/: fetches",
        "write .: downloads a tree into (place)",
        "class fetch: wget fetches from the network",
      ],
    ],
    [
      "wget --recursive https://x.example/",
      [
        "url https://x.example/: fetches",
        "write .: downloads a tree into (place)",
        "class fetch: wget fetches from the network",
      ],
    ],
    [
      "wget -m https://x.example/",
      [
        "url https://x.example/: fetches",
        "write .: downloads a tree into (place)",
        "class fetch: wget fetches from the network",
      ],
    ],
    [
      "wget --mirror -O x https://x.example/",
      [
        "url https://x.example/: fetches",
        "write x: downloads into (downloaded)",
        "write .: downloads a tree into (place)",
        "class fetch: wget fetches from the network",
      ],
    ],
  ] as [string, string[]][])("%s", (command, lines) => {
    expect(effectLines(command)).toEqual(lines);
  });
});

describe("wget: options with a value, sends, and settings from elsewhere", () => {
  it.each([
    // the value of an option is no URL
    [
      "wget -t 3 https://x.example/f",
      [
        "url https://x.example/f: fetches",
        "write f: downloads into (downloaded)",
        "class fetch: wget fetches from the network",
      ],
    ],
    [
      "wget -t3 https://x.example/f",
      [
        "url https://x.example/f: fetches",
        "write f: downloads into (downloaded)",
        "class fetch: wget fetches from the network",
      ],
    ],
    [
      "wget --tries=3 https://x.example/f",
      [
        "url https://x.example/f: fetches",
        "write f: downloads into (downloaded)",
        "class fetch: wget fetches from the network",
      ],
    ],
    [
      "wget --tries 3 https://x.example/f",
      [
        "url https://x.example/f: fetches",
        "write f: downloads into (downloaded)",
        "class fetch: wget fetches from the network",
      ],
    ],
    [
      "wget --header 'A: b' https://x.example/f",
      [
        "url https://x.example/f: fetches",
        "write f: downloads into (downloaded)",
        "class fetch: wget fetches from the network",
      ],
    ],
    [
      "wget -U agent https://x.example/f",
      [
        "url https://x.example/f: fetches",
        "write f: downloads into (downloaded)",
        "class fetch: wget fetches from the network",
      ],
    ],
    [
      "wget --user-agent agent https://x.example/f",
      [
        "url https://x.example/f: fetches",
        "write f: downloads into (downloaded)",
        "class fetch: wget fetches from the network",
      ],
    ],
    [
      "wget --no-check-certificate https://x.example/f",
      [
        "url https://x.example/f: fetches",
        "write f: downloads into (downloaded)",
        "class fetch: wget fetches from the network",
      ],
    ],
    [
      "wget $OPT https://x.example/f",
      [
        "url $OPT: fetches",
        "url https://x.example/f: fetches",
        "write f: downloads into (downloaded)",
        "class fetch: wget fetches from the network",
      ],
    ],
    [
      "wget --post-data 'a=b' https://x.example/f",
      [
        "url https://x.example/f: sends to",
        "send https://x.example/f: sends data to",
        "write f: downloads into (downloaded)",
        "class sends: wget sends data out",
      ],
    ],
    [
      "wget --body-data='a=b' --method=PUT https://x.example/f",
      [
        "url https://x.example/f: sends to",
        "send https://x.example/f: sends data to",
        "write f: downloads into (downloaded)",
        "class sends: wget sends data out",
      ],
    ],
    [
      "wget --post-file=.env https://x.example/",
      [
        "read .env: sends the content of (sent)",
        "class sends: wget sends a file's content out",
        "url https://x.example/: sends to",
        "send https://x.example/: sends data to",
        "write index.html: downloads into (downloaded)",
      ],
    ],
    [
      "wget --body-file data.json https://x.example/",
      [
        "read data.json: sends the content of (sent)",
        "class sends: wget sends a file's content out",
        "url https://x.example/: sends to",
        "send https://x.example/: sends data to",
        "write index.html: downloads into (downloaded)",
      ],
    ],
    ["wget --post-file", ["class sends: wget sends data out"]],
    [
      "wget -i urls.txt",
      ["read urls.txt: reads", "class unknown: wget -i: URLs read from a file", "legacy wget -i urls.txt"],
    ],
    [
      "wget --input-file=urls.txt",
      [
        "read urls.txt: reads",
        "class unknown: wget -i: URLs read from a file",
        "legacy wget --input-file=urls.txt",
      ],
    ],
    ["wget -i", ["class unknown: wget -i: URLs read from a file", "legacy wget -i"]],
    [
      "wget -e robots=off https://x.example/",
      ["class unknown: wget -e: settings from the command", "legacy wget -e robots=off https://x.example/"],
    ],
    [
      "wget --execute=robots=off https://x.example/",
      [
        "class unknown: wget --execute: settings from the command",
        "legacy wget --execute=robots=off https://x.example/",
      ],
    ],
    [
      "wget --config=w.rc https://x.example/",
      [
        "class unknown: wget --config: settings from the command",
        "legacy wget --config=w.rc https://x.example/",
      ],
    ],
    [
      "wget -$OPT https://x.example/f",
      ["class unknown: wget: an option known only at run time", "legacy wget -$OPT https://x.example/f"],
    ],
  ] as [string, string[]][])("%s", (command, lines) => {
    expect(effectLines(command)).toEqual(lines);
  });
});
describe("curl: every option of each kind", () => {
  const FETCH = ["url https://x.example/: fetches", "class fetch: curl fetches from the network"];
  it.each([
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
  ])("%s names a file written", (option) => {
    expect(effectLines(`curl ${option} f.out https://x.example/`)).toEqual(["write f.out: writes", ...FETCH]);
  });

  it.each(["-o", "--output"])("%s names the file the download goes into", (option) => {
    expect(effectLines(`curl ${option} f.out https://x.example/`)).toEqual([
      "write f.out: downloads into (downloaded)",
      ...FETCH,
    ]);
  });

  it.each([
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
  ])("%s names a file read", (option) => {
    expect(effectLines(`curl ${option} f.pem https://x.example/`)).toEqual(["read f.pem: reads", ...FETCH]);
  });

  it.each([
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
  ])("%s @file sends the file's content", (option) => {
    expect(effectLines(`curl ${option} @f.txt https://x.example/`)).toEqual([
      "url https://x.example/: sends to",
      "send https://x.example/: sends data to",
      "read f.txt: sends the content of (sent)",
      "class sends: curl sends a file's content out",
    ]);
  });

  it.each(["-u me:pw", "-e https://r.example/", "--retry 3", "-m 5", "--resolve h:443:1.2.3.4", "-r 0-99"])(
    "%s takes a value that is no URL",
    (option) => {
      expect(effectLines(`curl ${option} https://x.example/`)).toEqual(FETCH);
    },
  );
});

describe("curl and wget: the file a URL names, the data sent, and the options read", () => {
  it.each([
    // a URL of a host alone saves index.html
    [
      "curl -O https://x.example",
      [
        "url https://x.example: fetches",
        "write index.html: downloads into (downloaded)",
        "class fetch: curl fetches from the network",
      ],
    ],
    [
      "wget https://x.example",
      [
        "url https://x.example: fetches",
        "write index.html: downloads into (downloaded)",
        "class fetch: wget fetches from the network",
      ],
    ],
    // a URL without a scheme: a URL inside its path is no host
    [
      "curl -O web.archive.org/web/2020/https://y.example",
      [
        "url web.archive.org/web/2020/https://y.example: fetches",
        "write y.example: downloads into (downloaded)",
        "class fetch: curl fetches from the network",
      ],
    ],
    // --url=… takes no next word; --url takes the next word whatever it looks like
    [
      "curl --url=https://a.example/ https://b.example/",
      [
        "url https://a.example/: fetches",
        "url https://b.example/: fetches",
        "class fetch: curl fetches from the network",
      ],
    ],
    [
      "curl --url -o out.txt",
      ["url -o: fetches", "url out.txt: fetches", "class fetch: curl fetches from the network"],
    ],
    // an @ inside data is text: only a leading @ (or name=@) names a file
    [
      "curl -d me@x.example https://x.example",
      [
        "url https://x.example: sends to",
        "send https://x.example: sends data to",
        "class sends: curl sends data out",
      ],
    ],
    [
      "curl -d email=me@x.example https://x.example",
      [
        "url https://x.example: sends to",
        "send https://x.example: sends data to",
        "class sends: curl sends data out",
      ],
    ],
    // --data-urlencode name@file sends the file; name=text@… is text
    [
      "curl --data-urlencode text@notes.txt https://x.example",
      [
        "url https://x.example: sends to",
        "send https://x.example: sends data to",
        "read notes.txt: sends the content of (sent)",
        "class sends: curl sends a file's content out",
      ],
    ],
    [
      "curl --data-urlencode q=a@b.txt https://x.example",
      [
        "url https://x.example: sends to",
        "send https://x.example: sends data to",
        "class sends: curl sends data out",
      ],
    ],
    // data given in the command: standard input is not sent
    [
      "curl -d a=b https://x.example < notes.txt",
      [
        "read notes.txt: reads from",
        "url https://x.example: sends to",
        "send https://x.example: sends data to",
        "class sends: curl sends data out",
      ],
    ],
    // a method other than GET, HEAD and OPTIONS sends, even one that contains them
    [
      "curl --request POST https://x.example",
      [
        "url https://x.example: sends to",
        "send https://x.example: sends data to",
        "class sends: curl sends data out",
      ],
    ],
    [
      "curl -X FORGET https://x.example",
      [
        "url https://x.example: sends to",
        "send https://x.example: sends data to",
        "class sends: curl sends data out",
      ],
    ],
    [
      "curl -X HEADER https://x.example",
      [
        "url https://x.example: sends to",
        "send https://x.example: sends data to",
        "class sends: curl sends data out",
      ],
    ],
    [
      "curl --cookie cookies.txt https://x.example",
      [
        "read cookies.txt: reads",
        "url https://x.example: fetches",
        "class fetch: curl fetches from the network",
      ],
    ],
    // only -H and -w read @file: a user agent is text
    [
      "curl -A @bot https://x.example",
      ["url https://x.example: fetches", "class fetch: curl fetches from the network"],
    ],
    // only --output-dir moves where -O writes
    [
      "curl -A agent -O https://x.example/f",
      [
        "url https://x.example/f: fetches",
        "write f: downloads into (downloaded)",
        "class fetch: curl fetches from the network",
      ],
    ],
    // a lone - is a URL word, not an option
    ["wget -", ["url -: fetches", "class fetch: wget fetches from the network"]],
    // a short option's value may hold =
    [
      "wget -erobots=off https://x.example/",
      ["class unknown: wget -e: settings from the command", "legacy wget -erobots=off https://x.example/"],
    ],
  ] as [string, string[]][])("%s", (command, lines) => {
    expect(effectLines(command)).toEqual(lines);
  });
});
