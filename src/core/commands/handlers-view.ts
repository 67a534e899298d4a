import type { Arg, Run } from "./api.js";
import { exact, text } from "./arg-words.js";

// Programs that hand a file or a URL to the user's own viewer (xdg-open, open, gio open,
// wslview), and programs that serve a folder to the network (python -m http.server). What the
// viewer does depends on the file's type, so only types that are shown, not run, are read here
// (decision 0142).

/** Types a viewer shows: documents and images. Anything else may be a program or a launcher. */
const SHOWN = /\.(?:pdf|png|jpe?g|gif|webp|avif|bmp|ico|tiff?|md|markdown|txt|text|csv|tsv|log|rst)$/i;
/** Pages a browser shows and whose scripts run there, in its sandbox. */
const PAGES = /\.(?:html?|xhtml|svg)$/i;
/** Options of macOS open that change only how a document is shown (-R reveals it in Finder). */
const OPEN_FLAGS = new Set([
  "-g",
  "-W",
  "-R",
  "-n",
  "-F",
  "-j",
  "-t",
  "-e",
  "--wait-apps",
  "--reveal",
  "--new",
  "--fresh",
  "--hide",
  "--background",
]);

/** The words after the program name that name what is opened, or why they cannot be read. */
function targets(program: string, args: readonly Arg[]): Arg[] | string {
  let words = args;
  if (program === "gio") {
    if (exact(words[0]) !== "open")
      return `gio ${exact(words[0]) ?? ""}: a gio command the catalogue does not know`;
    words = words.slice(1);
  }
  const out: Arg[] = [];
  let ended = false;
  for (const a of words) {
    const t = exact(a);
    if (t === undefined) return `${program} opens a name known only at run time`;
    if (!ended && t === "--") ended = true;
    else if (!ended && t.startsWith("-") && t.length > 1) {
      // -a App, -b bundle, --args, --env, --stdin: which program runs, and with what.
      if (program !== "open" || !OPEN_FLAGS.has(t))
        return `${program} ${t}: an option the catalogue does not know`;
    } else out.push(a);
  }
  if (out.length === 0) return `${program} without a file or URL`;
  if (program === "xdg-open" && out.length > 1) return "xdg-open takes one file or URL";
  return out;
}

/**
 * xdg-open, open, gio open, wslview: a document or image is read by the user's viewer; a page
 * runs its scripts in the browser (rated as the project's code, so a tainted session is asked);
 * an http(s) URL goes to the browser, a send to its host that brings nothing back. Any other
 * file, scheme or option may start a program and stays unknown.
 */
export function opener(run: Run, args: readonly Arg[]): void {
  const found = targets(run.program, args);
  if (typeof found === "string") return run.unknown(found);
  let page = false;
  for (const a of found) {
    const t = exact(a) ?? "";
    if (/^https?:\/\/[^/\s]/i.test(t)) run.role("host", a, "opens in the user's browser, which requests");
    else if (/^[a-z][a-z0-9+.-]*:/i.test(t) && !/^[a-z]:[\\/]/i.test(t))
      return run.unknown(`${run.program} ${t}: a scheme whose handler may be any program`);
    else if (PAGES.test(t)) {
      run.role("read", a, "opens in the user's browser");
      page = true;
    } else if (SHOWN.test(t)) run.role("read", a, "opens for the user to see");
    else return run.unknown(`${run.program} ${t}: a file that may be a program or a launcher`);
  }
  if (page) run.cls("project", `${run.program} opens a page whose scripts run in the browser`);
  else run.cls("reads", `${run.program} shows a document or page to the user`);
}

const SERVER_VALUE = new Set(["-b", "--bind", "-d", "--directory", "-p", "--protocol", "--cgi"]);

/**
 * python -m http.server [PORT] [-b ADDR] [-d DIR]: it listens on a port and serves the folder
 * to whoever reaches it, on every interface unless -b narrows it. Nothing it does is a read by
 * the session, but the folder leaves the machine: a question, with its own reason.
 */
export function server(run: Run, args: readonly Arg[]): void {
  let port = "8000";
  let bind: string | undefined;
  let dir: Arg | undefined;
  for (let i = 0; i < args.length; i++) {
    const a = args[i] as Arg;
    const t = exact(a);
    if (t === undefined) return run.unknown(`${run.program}: a word known only at run time`);
    if (t === "--cgi") return run.unknown(`${run.program} --cgi runs the folder's scripts for whoever asks`);
    const eq = t.indexOf("=");
    const name = t.startsWith("--") && eq > 0 ? t.slice(0, eq) : t;
    if (SERVER_VALUE.has(name)) {
      const v = eq > 0 && t.startsWith("--") ? a : args[++i];
      const value = eq > 0 && t.startsWith("--") ? t.slice(eq + 1) : exact(v);
      if (value === undefined || v === undefined)
        return run.unknown(`${run.program} ${t}: a value known only at run time`);
      if (name === "-b" || name === "--bind") bind = value;
      else if (name === "-d" || name === "--directory")
        dir = { value: { exact: value, text: value, substitutions: [] } };
    } else if (/^\d+$/.test(t)) port = t;
    else return run.unknown(`${run.program} ${t}: a word the catalogue does not know`);
  }
  run.cls(
    "unknown",
    `${run.program} serves ${dir === undefined ? "the working folder" : text(dir)} to the network on port ${port}, ${bind === undefined ? "on every interface" : `at ${bind}`}`,
  );
}
