/**
 * Folded text built piece by piece, with every run of spacing collapsed to one space, also where a
 * run crosses from one piece into the next. A plain ASCII stretch with much spacing to collapse
 * (source code: a line break and indentation every few dozen characters) is folded by one loop
 * over its bytes; the engine's lower-casing and spacing expression took about twice as long
 * there, since the expression pays for each of its many matches. Text with little spacing to
 * collapse (prose, one repeated letter) keeps them: on such text they are faster than the loop
 * (decision 0138). Either way gives the same text.
 *
 * Why collapsing piece by piece gives the same text as collapsing the whole: collapsing turns
 * every maximal run of `\s` into one space. A collapsed piece ends in a space exactly when the
 * piece ends in spacing, and starts with one exactly when it starts with spacing; so a run that
 * crosses a join leaves two spaces there, and dropping the second leaves the one of the whole.
 */

/** Runs of spacing, and single spacing characters other than a plain space, as `fold` collapses them. */
export const SPACING = /\s{2,}|[^\S ]/g;

/** Below this length a stretch is not worth the loop's set-up (encoding the source once). */
const LOOP_AT_LEAST = 4096;
/** How much of a stretch is looked at to choose, and the matches of SPACING in it that choose the loop. */
const PROBE = 4096;
const PROBE_MATCHES = 24;
const PROBE_SPACING = /\s{2,}|[^\S ]/g;

/** Whether the PROBE characters from `from` hold more than PROBE_MATCHES runs to collapse. */
function muchSpacing(text: string, from: number): boolean {
  const probe = text.slice(from, from + PROBE);
  PROBE_SPACING.lastIndex = 0;
  let n = 0;
  while (PROBE_SPACING.exec(probe) !== null) if (++n > PROBE_MATCHES) return true;
  return false;
}

export class FoldedText {
  private readonly pieces: string[] = [];
  /** The latin1 image of `source`, and the ASCII folded so far, made on first use. */
  private bytes: Buffer | undefined;
  private out: Buffer | undefined;
  private flushed = 0;
  private written = 0;
  private endsInSpace = false;

  /**
   * `source` is the whole text; its latin1 image holds every ASCII character at its own index
   * (one byte per UTF-16 unit), which is all `ascii` reads.
   */
  constructor(private readonly source: string) {}

  /** `source.slice(from, to)`, all ASCII, lower-cased and its spacing collapsed. */
  ascii(from: number, to: number): void {
    if (from >= to) return;
    if (to - from < LOOP_AT_LEAST || !muchSpacing(this.source, from)) {
      this.folded(this.source.slice(from, to).toLowerCase());
      return;
    }
    const src = (this.bytes ??= Buffer.from(this.source, "latin1"));
    const out = (this.out ??= Buffer.allocUnsafe(this.source.length));
    let w = this.written;
    let space = this.endsInSpace;
    for (let i = from; i < to; i++) {
      let c = src[i] as number;
      // The ASCII characters of `\s`: tab, line feed, vertical tab, form feed, carriage return, space.
      if (c === 32 || (c >= 9 && c <= 13)) {
        if (!space) out[w++] = 32;
        space = true;
        continue;
      }
      space = false;
      if (c >= 65 && c <= 90) c += 32;
      out[w++] = c;
    }
    this.written = w;
    this.endsInSpace = space;
  }

  /** Text already folded but for its spacing. */
  folded(text: string): void {
    let s = text.replace(SPACING, " ");
    if (s.length === 0) return;
    if (this.endsInSpace && s.startsWith(" ")) s = s.slice(1);
    if (s.length === 0) return;
    this.flush();
    this.pieces.push(s);
    this.endsInSpace = s.endsWith(" ");
  }

  text(): string {
    this.flush();
    return this.pieces.length === 1 ? (this.pieces[0] as string) : this.pieces.join("");
  }

  private flush(): void {
    if (this.out !== undefined && this.written > this.flushed)
      this.pieces.push(this.out.toString("latin1", this.flushed, this.written));
    this.flushed = this.written;
  }
}
