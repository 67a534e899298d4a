import type { Platform } from "../types.js";

/**
 * The one place that decides when two spellings of a name are the same file name.
 *
 * - linux: names are byte strings; nothing is folded, `A` and `a` are different files and an
 *   NFD name is not its NFC twin.
 * - darwin: APFS and HFS+ are (by default) case-insensitive and normalisation-insensitive, and
 *   readdir may hand back NFD. Both sides are brought to NFC, then lower-cased.
 * - win32: NTFS is case-insensitive but does not normalise Unicode, so only case is folded.
 *
 * Lower-casing uses `toLowerCase` (one code point stays one code point for every letter a
 * real file name is likely to hold), so `?` wildcards keep counting the same characters.
 * Canonicalisation and pattern matching both call this; never fold anywhere else.
 */
export function foldName(name: string, platform: Platform): string {
  switch (platform) {
    case "linux":
      return name;
    case "darwin":
      return name.normalize("NFC").toLowerCase().normalize("NFC");
    case "win32":
      return name.toLowerCase();
  }
}
