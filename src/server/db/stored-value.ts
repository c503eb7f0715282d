/**
 * Stored text back to one of a closed set of values. The schemas let nothing else in, so a
 * mismatch is a corrupt or hand-edited row: a server fault, never the caller's input.
 */
export function storedValue<T extends string>(allowed: readonly T[], value: string, column: string): T {
  const found = allowed.find((candidate) => candidate === value);
  if (found === undefined) throw new Error(`unexpected ${column} value in the database: ${value}`);
  return found;
}
