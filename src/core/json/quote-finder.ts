/**
 * The next `"` or `\` in a piece of JSON text, for readers that step from string to string. A
 * regex search per string costs more than the string when strings are short (millions of
 * `{"type":"text"}`); two indexOf calls cost little, as long as the backslash search is not
 * repeated for every string of a piece that has none. So the next backslash is remembered.
 */
export class QuoteFinder {
  private piece = "";
  /** Where the next backslash is at or after the last search start; the piece's length if none. */
  private slash = -1;

  /** Start on a new piece. */
  reset(piece: string): void {
    this.piece = piece;
    this.slash = -1;
  }

  /** Index of the first `"` or `\` at or after `i`, or the piece's length when there is none. */
  next(i: number): number {
    const piece = this.piece;
    if (this.slash < i) {
      const s = piece.indexOf("\\", i);
      this.slash = s === -1 ? piece.length : s;
    }
    const q = piece.indexOf('"', i);
    return q !== -1 && q < this.slash ? q : this.slash;
  }
}
