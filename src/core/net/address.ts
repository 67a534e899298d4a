// Reading canonical IP addresses as numbers, for classes and ranges. Input is what
// canonicalHost writes: dotted IPv4, or IPv6 in brackets as the URL standard compresses it.

/** IPv4 `a.b.c.d` as a 32-bit number; undefined for anything else. */
export function ipv4Number(host: string): number | undefined {
  const m = /^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/.exec(host);
  if (m === null) return undefined;
  const parts = m.slice(1).map(Number);
  if (parts.some((p) => p > 255)) return undefined;
  return parts.reduce((n, p) => n * 256 + p, 0);
}

/** The eight 16-bit words of `[v6]` (brackets required); undefined for anything else. */
export function ipv6Words(host: string): number[] | undefined {
  if (!host.startsWith("[") || !host.endsWith("]")) return undefined;
  const body = host.slice(1, -1);
  const halves = body.split("::");
  if (halves.length > 2) return undefined;
  const part = (s: string) =>
    s === "" ? [] : s.split(":").map((w) => (/^[0-9a-f]{1,4}$/i.test(w) ? Number.parseInt(w, 16) : NaN));
  const left = part(halves[0] ?? "");
  const right = halves.length === 2 ? part(halves[1] ?? "") : [];
  const zeros = 8 - left.length - right.length;
  if (zeros < 0 || (halves.length === 1 && zeros !== 0)) return undefined;
  const words = [...left, ...Array<number>(zeros).fill(0), ...right];
  return words.every((w) => Number.isInteger(w)) ? words : undefined;
}

/** Two 16-bit words as dotted IPv4. */
export const dotted = (hi: number, lo: number): string => `${hi >> 8}.${hi & 0xff}.${lo >> 8}.${lo & 0xff}`;

/** Whether the first `bits` bits of two equally long lists of `width`-bit words agree. */
export function samePrefix(a: readonly number[], b: readonly number[], bits: number, width: number): boolean {
  let left = bits;
  for (let i = 0; i < a.length && left > 0; i += 1) {
    const take = Math.min(width, left);
    const shift = width - take;
    if (Math.floor((a[i] ?? 0) / 2 ** shift) !== Math.floor((b[i] ?? 0) / 2 ** shift)) return false;
    left -= take;
  }
  return true;
}
