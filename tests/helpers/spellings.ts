import fc from "fast-check";
import type { PlatformProfile } from "../../src/core/paths/api.js";

// A generator of the many ways a caller can write one path, per platform. Each spelling must land
// on the same canonical path as the plain absolute spelling (case and NFC aside, where folded).

export interface Target {
  /** Segments below the home folder, or undefined when the target is not under home. */
  underHome?: string[];
  /** Absolute segments from the root (drive excluded on win32). */
  absolute: string[];
}

type Gen = fc.GeneratorValue;

const oneOf = <T>(g: Gen, items: readonly T[]): T => items[g(fc.nat, { max: items.length - 1 })] as T;
const chance = (g: Gen, pct: number) => g(fc.nat, { max: 99 }) < pct;

function randomCase(g: Gen, s: string): string {
  return Array.from(s)
    .map((c) => (chance(g, 50) ? c.toUpperCase() : c.toLowerCase()))
    .join("");
}

function percentEncode(g: Gen, s: string): string {
  return Array.from(s)
    .map((c) =>
      /[%#?]/.test(c) || chance(g, 30)
        ? encodeURIComponent(c).replace(/[!'()*]/g, (x) => `%${x.charCodeAt(0).toString(16).toUpperCase()}`)
        : c,
    )
    .join("");
}

/** Noise that lexical normalisation must remove: `.`, `name/..`, empty segments. */
function decorate(g: Gen, segments: readonly string[]): string[] {
  const out: string[] = [];
  for (const s of segments) {
    if (chance(g, 15)) out.push(".");
    if (chance(g, 15)) out.push(oneOf(g, ["x", "tmp", "a b", "..x"]), "..");
    if (chance(g, 10)) out.push("");
    out.push(s);
  }
  if (chance(g, 15)) out.push(".");
  return out;
}

/** Per-name rewrites the platform ignores. */
function perName(g: Gen, profile: PlatformProfile, segments: string[], streams: boolean): string[] {
  return segments.map((s, i) => {
    if (s === "" || s === "." || s === "..") return s;
    let n = s;
    if (profile.platform !== "linux" && chance(g, 40)) n = randomCase(g, n);
    if (profile.platform === "darwin" && chance(g, 40)) n = n.normalize("NFD");
    if (profile.platform === "win32") {
      if (chance(g, 20)) n += oneOf(g, [".", " ", ". ", "..", "  ."]);
      if (streams && i === segments.length - 1 && chance(g, 30))
        n += oneOf(g, [":secret", "::$DATA", ":secret:$DATA", "::$data"]);
    }
    return n;
  });
}

function joinWith(g: Gen, profile: PlatformProfile, segments: readonly string[]): string {
  if (profile.platform !== "win32") return segments.join("/");
  return segments.map((s, i) => (i === 0 ? s : oneOf(g, ["\\", "/"]) + s)).join("");
}

/** One spelling of `target` on `profile`, plus a description for failure messages. */
export function spell(
  g: Gen,
  profile: PlatformProfile,
  target: Target,
  shortNames: Record<string, string> = {},
): string {
  const win = profile.platform === "win32";
  const forms = ["absolute", "relative", "uri"];
  if (target.underHome) forms.push("tilde", "$HOME", "${HOME}");
  if (target.underHome && win) forms.push("%USERPROFILE%", "$env:USERPROFILE");
  if (win) forms.push("rooted");
  const form = oneOf(g, forms);
  const shorten = (segs: string[]) =>
    segs.map((s) => (shortNames[s] !== undefined && chance(g, 50) ? (shortNames[s] as string) : s));
  const absSegs = shorten(target.absolute);

  if (form === "uri") {
    const segs = perName(g, profile, decorate(g, absSegs), false).map((s) => percentEncode(g, s));
    const host = oneOf(g, ["", "localhost"]);
    const scheme = oneOf(g, ["file", "FILE", "File"]);
    return `${scheme}://${host}/${win ? `${oneOf(g, ["C", "c"])}:/` : ""}${segs.join("/")}`;
  }
  let head: string;
  let rest: string[];
  let rooted = false;
  if (form === "absolute" || form === "rooted" || form === "relative") {
    rest = absSegs;
    if (form === "relative") {
      const depth = profile.cwd.split(/[\\/]/).filter((s) => s !== "" && !/^[A-Za-z]:$/.test(s)).length;
      const ups = depth + g(fc.nat, { max: 3 });
      rest = [...Array<string>(ups).fill(".."), ...absSegs];
      head = "";
    } else if (form === "rooted") {
      head = "";
      rooted = true;
    } else if (win) {
      head = oneOf(g, ["C:", "c:", "\\\\?\\C:", "//?/c:", "\\\\.\\C:", "//./C:"]);
    } else {
      head = "";
      rooted = true;
    }
  } else {
    rest = shorten(target.underHome as string[]);
    head =
      form === "tilde"
        ? "~"
        : form === "%USERPROFILE%"
          ? `%${randomCase(g, "USERPROFILE")}%`
          : form === "$env:USERPROFILE"
            ? `$env:${randomCase(g, "USERPROFILE")}`
            : form;
  }
  const body = perName(g, profile, decorate(g, rest), true);
  // A doubled separator right at the root would turn `\x` into a UNC path on win32: a different path.
  while (rooted && win && body[0] === "") body.shift();
  if (rooted) return joinWith(g, profile, ["", ...body]);
  if (head === "") return joinWith(g, profile, body);
  return joinWith(g, profile, [head, ...body]);
}
