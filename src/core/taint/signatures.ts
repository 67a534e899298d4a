import { type Layer, revealLayers } from "./normalise.js";

/**
 * Content signatures: weighted patterns over folded text. They can only RAISE taint (make
 * confirm_if_tainted paths and exec stricter); they never block a call themselves, because
 * wording is trivially varied and "is this an instruction?" has no reliable answer.
 * No rule reaches THRESHOLD alone, even with the hidden-layer bonus: it takes two different
 * kinds of signal (e.g. an override plus a pipe-to-shell) to taint a session.
 */
export const THRESHOLD = 5;
/** Added once when any hit lies in a hidden or encoded layer. */
export const HIDDEN_BONUS = 1;

export interface SignatureRule {
  id: string;
  weight: number;
  pattern: RegExp;
  /** Every match of `pattern` begins with one of these: where to look for it (see `ruleStarts`). */
  starts: readonly string[];
  /**
   * The starts whose matches may begin inside a word. A match that begins with any other start
   * begins at a word boundary (`\b`), so the search for those starts looks only there.
   */
  anywhere?: readonly string[];
}

// Patterns run on folded text: lower case, single spaces, look-alike letters replaced.
export const RULES: readonly SignatureRule[] = [
  {
    id: "instruction-override",
    weight: 3,
    pattern:
      /\b(ignore|disregard|forget|override)\b.{0,40}\b(previous|prior|above|earlier|all|your|system)\b.{0,20}\b(instructions?|prompts?|rules|directions)\b/,
    starts: ["ignore", "disregard", "forget", "override"],
  },
  {
    id: "role-override",
    weight: 2,
    pattern:
      /\b(you are now|from now on you|new system prompt|act as (an? )?(admin|root|developer mode))|<\/?system>/,
    starts: ["you are now", "from now on you", "new system prompt", "act as ", "<system>", "</system>"],
    anywhere: ["<system>", "</system>"],
  },
  {
    id: "secrecy",
    weight: 3,
    pattern:
      /\b(do not|don't|dont|never) (tell|inform|mention|reveal|show)\b.{0,30}\b(user|human|anyone)\b|\bwithout (telling|informing|notifying) (the )?(user|human)\b|\bkeep (this|it) (a )?secret\b/,
    starts: ["do not ", "don't ", "dont ", "never ", "without ", "keep "],
  },
  {
    id: "silent-action",
    weight: 2,
    pattern: /\b(silently|quietly|secretly|without (asking|confirmation|confirming))\b/,
    starts: ["silently", "quietly", "secretly", "without "],
  },
  {
    id: "credential-access",
    weight: 3,
    pattern:
      /(\.ssh\/|id_rsa|id_ed25519|\.aws\/credentials|\.env\b|\.npmrc|\.netrc|api[_ -]?keys?\b|private key|access token)/,
    starts: [
      ".ssh/",
      "id_rsa",
      "id_ed25519",
      ".aws/credentials",
      ".env",
      ".npmrc",
      ".netrc",
      "api_key",
      "api-key",
      "api key",
      "apikey",
      "private key",
      "access token",
    ],
    get anywhere() {
      return this.starts;
    },
  },
  {
    id: "exfiltration-target",
    weight: 2,
    pattern:
      /\b(send|post|upload|forward|exfiltrate|email)\b.{0,60}(https?:\/\/|webhook|pastebin|ngrok|requestbin|@[a-z0-9-]+\.[a-z]{2,})/,
    starts: ["send", "post", "upload", "forward", "exfiltrate", "email"],
  },
  {
    id: "pipe-to-shell",
    weight: 3,
    pattern:
      /\b(curl|wget|iwr|invoke-webrequest)\b[^|\n]{0,200}\|\s*(sudo\s+)?(ba|z|da)?sh\b|\biex\s*\(|invoke-expression|base64 (-d|--decode)[^|]{0,40}\|\s*(ba)?sh\b/,
    starts: [
      "curl",
      "wget",
      "iwr",
      "invoke-webrequest",
      "iex",
      "invoke-expression",
      "base64 -d",
      "base64 --decode",
    ],
    anywhere: ["invoke-expression", "base64 -d", "base64 --decode"],
  },
  {
    id: "agent-config-write",
    weight: 3,
    pattern:
      /\b(write|add|append|edit|modify|update|create)\b.{0,60}(mcp\.json|claude_desktop_config|\.cursor\/|\.claude\/|\.bashrc|\.zshrc|\.profile\b|authorized_keys|\.git\/hooks|launchagents|autostart)/,
    starts: ["write", "add", "append", "edit", "modify", "update", "create"],
  },
  {
    id: "tool-directive",
    weight: 2,
    pattern:
      /\b(call|use|invoke|run) the\b.{0,30}\btool\b|\bbefore (answering|responding|you respond)\b.{0,40}\b(call|run|read|execute)\b/,
    starts: [
      "call the",
      "use the",
      "invoke the",
      "run the",
      "before answering",
      "before responding",
      "before you respond",
    ],
  },
  {
    id: "encoded-instruction-marker",
    weight: 2,
    pattern: /\b(decode (this|the following)|the following is base64|execute the decoded)\b/,
    starts: ["decode this", "decode the following", "the following is base64", "execute the decoded"],
  },
];

export interface SignatureHit {
  rule: string;
  weight: number;
  via: string;
  hidden: boolean;
  /** Up to 120 characters of folded text around the match. */
  sample: string;
}

export interface SignatureScore {
  score: number;
  hits: SignatureHit[];
  tainting: boolean;
}

/** Score one text: each rule counts once (repetition does not inflate the score). */
export function scoreText(text: string): SignatureScore {
  return scoreLayers(revealLayers(text));
}

export function scoreLayers(layers: readonly Layer[]): SignatureScore {
  const hits: SignatureHit[] = [];
  const found = new Map<Layer, number[]>();
  const starts = (layer: Layer) => {
    let at = found.get(layer);
    if (at === undefined) found.set(layer, (at = ruleStarts(layer.text)));
    return at;
  };
  for (const [r, rule] of RULES.entries()) {
    let best: SignatureHit | undefined;
    for (const layer of layers) {
      const at = starts(layer)[r] as number;
      if (at < 0) continue;
      const start = Math.max(0, at - 30);
      const hit = {
        rule: rule.id,
        weight: rule.weight,
        via: layer.via,
        hidden: layer.hidden,
        sample: layer.text.slice(start, start + 120),
      };
      // Prefer the hidden sighting: it is the stronger signal and the one worth showing.
      if (best === undefined || (hit.hidden && !best.hidden)) best = hit;
      if (best.hidden) break;
    }
    if (best) hits.push(best);
  }
  const score = hits.reduce((s, h) => s + h.weight, 0) + (hits.some((h) => h.hidden) ? HIDDEN_BONUS : 0);
  return { score, hits, tainting: score >= THRESHOLD };
}

const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\/-]/g, "\\$&");

interface StartPatterns {
  /**
   * Any rule's start, in two searches: the starts whose matches begin at a word boundary, looked
   * for only there, and the rest, looked for everywhere. A position either matches at is where
   * some rule may match. Two searches cost less than one over all the starts: the first rejects
   * a position inside a word before trying its many words, and the second has few words.
   */
  bounded: RegExp;
  anywhere: RegExp;
  /** Each rule's pattern tried at one position only. */
  sticky: RegExp[];
  /**
   * For each start word, the rules that may begin where it was found: those with a start that
   * is a prefix of it or that it is a prefix of. Two words found at one position are both
   * prefixes of the text there, so one is a prefix of the other; no other rule can begin there.
   */
  owners: Map<string, number[]>;
}
let startPatterns: StartPatterns | undefined;

/** Built on first use, so that a malformed rule fails the scan that uses it, not the import. */
function patterns(): StartPatterns {
  if (startPatterns !== undefined) return startPatterns;
  const words = [...new Set(RULES.flatMap((r) => r.starts))];
  const anywhere = new Set(RULES.flatMap((r) => r.anywhere ?? []));
  const alternatives = (ws: string[]) => ws.map(escape).join("|");
  const owners = new Map(
    words.map((w) => [
      w,
      RULES.flatMap((r, i) => (r.starts.some((s) => s.startsWith(w) || w.startsWith(s)) ? [i] : [])),
    ]),
  );
  return (startPatterns = {
    bounded: new RegExp(`\\b(?:${alternatives(words.filter((w) => !anywhere.has(w)))})`, "g"),
    anywhere: new RegExp(alternatives([...anywhere]), "g"),
    sticky: RULES.map((r) => new RegExp(r.pattern.source, `${r.pattern.flags}y`)),
    owners,
  });
}

/**
 * Where each rule first matches in `text` (as `RULES[i].pattern.exec(text)?.index`), or -1.
 * Ten patterns each reading the whole text cost ten passes, each slow on ordinary words; one
 * pass for all their starting words, trying at each stop only the rules that can begin with the
 * word found there, costs about one.
 * The same answer: a match begins at a start of its rule, and at a word boundary unless that start
 * is one of the rule's `anywhere`; the merged searches stop, in order, at every position where
 * such a start occurs; the rules tried there are all that can begin there (see `owners`); and a
 * rule's first match is the first of those where it matches.
 */
export function ruleStarts(text: string): number[] {
  const { bounded, anywhere, sticky: stickies, owners } = patterns();
  const at = RULES.map(() => -1);
  let left = RULES.length;
  bounded.lastIndex = 0;
  anywhere.lastIndex = 0;
  let b = bounded.exec(text);
  let a = anywhere.exec(text);
  // The two searches' stops, merged in order of position.
  while ((a !== null || b !== null) && left > 0) {
    const fromAnywhere = b === null || (a !== null && a.index < b.index);
    const m = (fromAnywhere ? a : b) as RegExpExecArray;
    for (const r of owners.get(m[0]) as number[]) {
      if (at[r] !== -1) continue;
      const sticky = stickies[r] as RegExp;
      sticky.lastIndex = m.index;
      if (sticky.test(text)) {
        at[r] = m.index;
        left--;
      }
    }
    // A start may begin inside another's occurrence (`the following is base64 -d`): look again
    // from the next character, not after this occurrence.
    if (fromAnywhere) {
      anywhere.lastIndex = m.index + 1;
      a = anywhere.exec(text);
    } else {
      bounded.lastIndex = m.index + 1;
      b = bounded.exec(text);
    }
  }
  return at;
}
