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
}

// Patterns run on folded text: lower case, single spaces, look-alike letters replaced.
export const RULES: readonly SignatureRule[] = [
  {
    id: "instruction-override",
    weight: 3,
    pattern:
      /\b(ignore|disregard|forget|override)\b.{0,40}\b(previous|prior|above|earlier|all|your|system)\b.{0,20}\b(instructions?|prompts?|rules|directions)\b/,
  },
  {
    id: "role-override",
    weight: 2,
    pattern:
      /\b(you are now|from now on you|new system prompt|act as (an? )?(admin|root|developer mode)|<\/?system>)/,
  },
  {
    id: "secrecy",
    weight: 3,
    pattern:
      /\b(do not|don't|dont|never) (tell|inform|mention|reveal|show)\b.{0,30}\b(user|human|anyone)\b|\bwithout (telling|informing|notifying) (the )?(user|human)\b|\bkeep (this|it) (a )?secret\b/,
  },
  {
    id: "silent-action",
    weight: 2,
    pattern: /\b(silently|quietly|secretly|without (asking|confirmation|confirming))\b/,
  },
  {
    id: "credential-access",
    weight: 3,
    pattern:
      /(\.ssh\/|id_rsa|id_ed25519|\.aws\/credentials|\.env\b|\.npmrc|\.netrc|api[_ -]?keys?\b|private key|access token)/,
  },
  {
    id: "exfiltration-target",
    weight: 2,
    pattern:
      /\b(send|post|upload|forward|exfiltrate|email)\b.{0,60}(https?:\/\/|webhook|pastebin|ngrok|requestbin|@[a-z0-9-]+\.[a-z]{2,})/,
  },
  {
    id: "pipe-to-shell",
    weight: 3,
    pattern:
      /\b(curl|wget|iwr|invoke-webrequest)\b[^|\n]{0,200}\|\s*(sudo\s+)?(ba|z|da)?sh\b|\biex\s*\(|invoke-expression|base64 (-d|--decode)[^|]{0,40}\|\s*(ba)?sh\b/,
  },
  {
    id: "agent-config-write",
    weight: 3,
    pattern:
      /\b(write|add|append|edit|modify|update|create)\b.{0,60}(mcp\.json|claude_desktop_config|\.cursor\/|\.claude\/|\.bashrc|\.zshrc|\.profile\b|authorized_keys|\.git\/hooks|launchagents|autostart)/,
  },
  {
    id: "tool-directive",
    weight: 2,
    pattern:
      /\b(call|use|invoke|run) the\b.{0,30}\btool\b|\bbefore (answering|responding|you respond)\b.{0,40}\b(call|run|read|execute)\b/,
  },
  {
    id: "encoded-instruction-marker",
    weight: 2,
    pattern: /\b(decode (this|the following)|the following is base64|execute the decoded)\b/,
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
  for (const rule of RULES) {
    let best: SignatureHit | undefined;
    for (const layer of layers) {
      const m = rule.pattern.exec(layer.text);
      if (!m) continue;
      const start = Math.max(0, m.index - 30);
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
