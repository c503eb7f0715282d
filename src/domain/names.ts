/**
 * How names sort everywhere (expense lists, deposit lists, ledger rows): case-insensitive, then
 * by exact text so the order is total. Plain code-point order, not a locale collator, so the
 * server, the page and both databases agree whatever their ICU data.
 */
export function compareNames(a: string, b: string): number {
  const lowerA = a.toLowerCase();
  const lowerB = b.toLowerCase();
  if (lowerA !== lowerB) return lowerA < lowerB ? -1 : 1;
  return a < b ? -1 : a > b ? 1 : 0;
}

/** Plain code-unit order, the same in every runtime and database. */
export function byCodeUnits(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
