/** EFFECTGATE_OFF turns every check off only for an affirmative value; anything else is "on". */
export function isOffValue(value: string | undefined): boolean {
  if (value === undefined) return false;
  return ["1", "true", "yes", "on"].includes(value.trim().toLowerCase());
}
