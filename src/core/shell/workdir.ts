/** Words that do not depend on the working directory: /x, \\x, ~, $VAR, %VAR%, C:… */
const ABSOLUTE_ISH = /^(?:[\\/~$%]|[A-Za-z]:)/;

/** `word` spelled inside the folder `dir`, with the folder's own separator. */
export function inWorkdir(dir: string, word: string): string {
  const sep = dir.includes("\\") && !dir.includes("/") ? "\\" : "/";
  return `${dir.replace(/[\\/]+$/, "")}${sep}${word}`;
}

/** Whether a command word depends on the working directory (else it is judged only as written). */
export const isRelativeWord = (word: string): boolean => !ABSOLUTE_ISH.test(word);
