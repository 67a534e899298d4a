// Test helper: a byte stream cut into chunks, for "any chunking gives the same frames" properties.

/** Cuts `bytes` at the given offsets (taken modulo the length, deduplicated, sorted). */
export function cut(bytes: Buffer, offsets: number[]): Buffer[] {
  const points = [...new Set(offsets.map((o) => o % (bytes.length + 1)))].sort((a, b) => a - b);
  const chunks: Buffer[] = [];
  let prev = 0;
  for (const p of points) {
    chunks.push(bytes.subarray(prev, p));
    prev = p;
  }
  chunks.push(bytes.subarray(prev));
  return chunks;
}
