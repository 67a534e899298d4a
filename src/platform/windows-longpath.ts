// Expanding Windows 8.3 short names (`PROGRA~1` → `Program Files`) with GetLongPathNameW.
// koffi is loaded only on Windows, on first use (koffi.ts); anywhere else, or when it is not
// installed, the function reports that it cannot help and callers keep the path as is.

import { loadKoffi } from "./koffi.js";

type LongPathFn = (short: string) => string | undefined;

let loaded: LongPathFn | null | undefined;

function load(): LongPathFn | null {
  if (process.platform !== "win32") return null;
  try {
    const koffi = loadKoffi() as {
      load(name: string): { func(signature: string): (...args: unknown[]) => number };
    };
    const kernel32 = koffi.load("kernel32.dll");
    // The output buffer is a Node Buffer passed in place; sizes are in UTF-16 units.
    const GetLongPathNameW = kernel32.func(
      "uint32_t __stdcall GetLongPathNameW(const char16_t *lpszShortPath, void *lpszLongPath, uint32_t cchBuffer)",
    );
    return (short: string) => {
      let size = 1024;
      for (let attempt = 0; attempt < 3; attempt++) {
        const buf = Buffer.alloc(size * 2);
        const n = GetLongPathNameW(short, buf, size);
        if (n === 0) return undefined; // missing file or access denied: nothing to say
        if (n < size) return buf.toString("utf16le", 0, n * 2);
        size = n + 1; // the buffer was too small; n is the size needed
      }
      return undefined;
    };
  } catch {
    return null;
  }
}

/**
 * The long form of an EXISTING path, or undefined when it cannot be had (not Windows, koffi
 * missing, the path does not exist). Only worth calling when a segment contains `~`.
 */
export function longPathName(existing: string): string | undefined {
  if (loaded === undefined) loaded = load();
  return loaded === null ? undefined : loaded(existing);
}

/** Whether any segment looks like an 8.3 alias (`NAME~N`), so the API call can be skipped otherwise. */
export function mayHaveShortNames(p: string): boolean {
  return /~\d/.test(p);
}
