import type { Canonical, PathResolver, PlatformProfile } from "../paths/api.js";
import type { Canonicalise } from "./judge-effect.js";

/**
 * `canonicalise`, remembering its answers for one call's judgement. A call often names one
 * string several times (`edit_file` writes and reads its path; an unparsed command's words are
 * each a possible write and read), and canonicalising costs more than the rest of judging it.
 * Only within one call: nothing on the disk changes while a call is judged, but the resolver
 * forgets after a call that writes (decision 0012), so answers must not outlive the call.
 * Keyed by the profile and resolver objects too: other bases are judged with a profile of their own.
 */
export function canonicaliseOnce(canonicalise: Canonicalise): Canonicalise {
  const known = new Map<PlatformProfile, { resolver: PathResolver; answers: Map<string, Canonical> }>();
  return (input, profile, resolver, leaveOut = 0) => {
    let forProfile = known.get(profile);
    if (forProfile === undefined || forProfile.resolver !== resolver) {
      forProfile = { resolver, answers: new Map() };
      known.set(profile, forProfile);
    }
    const key = `${leaveOut}\u0000${input}`;
    let answer = forProfile.answers.get(key);
    if (answer === undefined) {
      answer =
        leaveOut === 0
          ? canonicalise(input, profile, resolver)
          : canonicalise(input, profile, resolver, leaveOut);
      forProfile.answers.set(key, answer);
    }
    return answer;
  };
}
