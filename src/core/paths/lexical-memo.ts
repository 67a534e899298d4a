import type { PlatformProfile } from "./api.js";
import type { Lexical } from "./canonical.js";

type LexicalPath = (input: string, profile: PlatformProfile, leaveOut?: number) => Lexical;

/**
 * `lexicalPath` (canonical.ts passes it in), remembered across calls. A session names the same
 * few paths call after call (`src/index.ts`, `README.md`), and their lexical form depends only on
 * the text, the steps left out and the profile: never on the disk, so unlike canonicaliseOnce's
 * answers these may outlive a call. Parsing, expanding and joining were about a tenth of a
 * decision (decision 0146). Kept per profile object, and dropped when that profile's fields are
 * no longer the ones they were found with; long texts (every string of an unknown tool is read
 * as a path) are not kept.
 */
export function lexicalMemo(lexicalPath: LexicalPath): LexicalPath {
  const memos = new WeakMap<PlatformProfile, Memo>();
  return (input, profile, leaveOut = 0) => {
    if (input.length > MAX_KEPT_CHARS) return lexicalPath(input, profile, leaveOut);
    let memo = memos.get(profile);
    if (
      memo === undefined ||
      memo.platform !== profile.platform ||
      memo.cwd !== profile.cwd ||
      memo.home !== profile.home ||
      memo.env !== profile.env
    ) {
      const { platform, cwd, home, env } = profile;
      memo = { platform, cwd, home, env, answers: new Map() };
      memos.set(profile, memo);
    }
    // The number first: it holds no NUL, so no two (steps, text) pairs make one key.
    const key = `${leaveOut}\u0000${input}`;
    let answer = memo.answers.get(key);
    if (answer === undefined) {
      answer = lexicalPath(input, profile, leaveOut);
      if (memo.answers.size >= MAX_ANSWERS) memo.answers.clear();
      memo.answers.set(key, answer);
    }
    return answer;
  };
}

/** Enough for the paths of a working session; cleared whole when full, as nameWords is. */
const MAX_ANSWERS = 512;
const MAX_KEPT_CHARS = 1024;

interface Memo {
  platform: PlatformProfile["platform"];
  cwd: string;
  home: string;
  env: PlatformProfile["env"];
  answers: Map<string, Lexical>;
}
