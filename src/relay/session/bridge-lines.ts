/**
 * Which server frames the `--url` bridge wrote itself (decision 0114). The endpoint says so by
 * position among its stdout lines; whoever splits those lines counts them the same way and asks
 * once per frame. Never by content: the server chooses content, and could forge a mark.
 */
export class BridgeLines {
  private next = 0;
  private readonly marked = new Set<number>();

  /** The endpoint wrote the lines at these positions (from 0) itself. */
  add(lines: readonly number[]): void {
    for (const n of lines) this.marked.add(n);
  }

  /** One server frame was split off, in order: whether the bridge wrote it. */
  take(): boolean {
    const n = this.next++;
    return this.marked.size > 0 && this.marked.delete(n);
  }
}
