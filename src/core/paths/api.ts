import type { Platform } from "../types.js";

/**
 * The facts canonicalisation needs about the machine, passed in so that src/core stays pure
 * and Windows and macOS rules can be tested on Linux.
 */
export interface PlatformProfile {
  platform: Platform;
  /** The user's home folder, in the platform's own spelling. */
  home: string;
  /** Environment used to expand `$VAR`, `${VAR}` and `%VAR%`; unset names stay literal. */
  env: Readonly<Record<string, string>>;
  /** The server's working directory: relative paths in calls are relative to it. */
  cwd: string;
}

/** File-system questions, answered by src/platform in production and by fakes in tests. */
export interface PathResolver {
  /**
   * The real path of `absolute` (an absolute, lexically normalised path): symlinks resolved over
   * the longest existing prefix (dangling links followed to their target), the missing tail
   * re-attached, and on Windows 8.3 short names expanded. Returns undefined only when nothing
   * can be said (e.g. permission denied on the first component); callers then judge the lexical form.
   */
  realpath(absolute: string): string | undefined;
  /**
   * `realpath` for the anchor of a policy pattern (`~/.ssh` of `~/.ssh/**`). It may keep its
   * answers when the resolver is told to forget: no call the policy lets through can move an
   * anchor without writing the anchor or a folder above it, which its own pattern refuses, or
   * without running code, which could write below the anchor anyway (decision 0012). Optional:
   * without it, anchors are asked like any path.
   */
  anchorRealpath?(absolute: string): string | undefined;
  /**
   * The positions in `anchors`, in order, whose `anchorRealpath` (else `realpath`) is known and
   * differs from the anchor. Optional: without it a pattern set asks each anchor before its best
   * match, for every path. One call's snapshot (anchor-snapshot.ts) answers once per list for the
   * call; the production resolver keeps each list's answer as long as its anchors' answers.
   */
  movedAnchors?(anchors: readonly string[]): readonly number[];
  /**
   * Whether `absolute` is an existing regular file that also has other names (hard links, a link
   * count above 1): writing it changes every name. False when missing or a folder. Optional: a
   * resolver without it (offline checks) cannot see hard links.
   */
  hasOtherNames?(absolute: string): boolean;
  /**
   * Whether `absolute` is an existing folder (links followed): the kernel can only take `..`
   * from one. Optional: without it, the walk of `..` assumes every folder it passes exists.
   */
  isFolder?(absolute: string): boolean;
  /**
   * `absolute` (lexically normalised) with each missing name replaced by the one existing entry
   * of its folder that has the same NFC form, as a server that matches names that way opens it;
   * undefined when no name was replaced. Optional: a resolver without it sees only the NFC form.
   */
  unicodeEquivalent?(absolute: string): string | undefined;
  /**
   * Whether anything (a file, a folder, a dangling link) is at `absolute`. Asked by the model of
   * git's discovery (a folder is a git directory once it holds HEAD, objects and refs) and of
   * PATH folders. Optional: without it, only what a path says lexically is known.
   */
  exists?(absolute: string): boolean;
  /**
   * A string naming the file at `absolute` itself (device and inode), links followed; undefined
   * when nothing is there. Two names of one file (hard links, bind mounts) give the same id, so
   * effectgate's own files are known by identity, not by name. Optional.
   */
  fileId?(absolute: string): string | undefined;
}

export type Canonical =
  | {
      ok: true;
      /** The argument as written. */
      spelled: string;
      /** Expanded (~, env, file://, prefixes, ADS) and lexically normalised, absolute. */
      lexical: string;
      /** `lexical` with links and short names resolved; equal to lexical when nothing changed. */
      resolved: string;
      /**
       * Present when the path has a `..` and walking it as the kernel does (links followed before
       * each `..`) lands somewhere other than `resolved`.
       */
      physical?: string;
      /**
       * Present when `lexical` has other Unicode spellings a server may open: its NFC form, and
       * the path through existing names with the same NFC form (`PathResolver.unicodeEquivalent`).
       * Absolute; each is judged as a reading of its own, taken literally.
       */
      equivalents?: string[];
      /**
       * Present on win32 when a name as written is not the name Windows opens: a trailing dot or
       * space, or a `:stream` suffix (`.env.` and `.env:x` both open `.env`). No honest tool
       * spells a file that way, so a rule may judge such a write more strictly (decision 0143).
       */
      renamed?: true;
      /** Present when the file (resolved or physical) has other names (hard links). */
      otherNames?: true;
      /**
       * Present when the path is longer than any system call accepts, both as written and as
       * normalised (MAX_PATH_CHARS): it names no file, and links were not asked about.
       */
      namesNoFile?: true;
    }
  | { ok: false; spelled: string; error: string };

/**
 * One compiled path pattern (see docs/policy.md for the forms). `test` takes an absolute
 * canonical path in the profile's spelling; anchored patterns also compare against the real
 * path of their anchor, asked of `resolver` at decision time (so a symlinked ~/.ssh is still ~/.ssh).
 */
export interface PathPattern {
  body: string;
  test(absolute: string, resolver?: PathResolver): boolean;
}

export type CompiledPattern = { ok: true; pattern: PathPattern } | { ok: false; expected: string };
