/** `/usr/bin/MV.EXE` → `mv`: the name a program is known by. */
export function programName(word: string): string {
  return word
    .toLowerCase()
    .replace(/^.*[\\/]/, "")
    .replace(/\.exe$/, "");
}
