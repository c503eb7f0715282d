/**
 * The ledger's Search field (issue 13): the windowed table renders only the rows near the screen,
 * so the browser's find-in-page misses the rest; this finds them by name.
 */

/** The rows whose name contains the text, in any case; every row (the same array) for an empty search. */
export function filterByName<Row extends { readonly name: string }>(rows: readonly Row[], search: string): readonly Row[] {
  const wanted = search.trim().toLocaleLowerCase('en-US');
  if (wanted === '') return rows;
  return rows.filter((row) => row.name.toLocaleLowerCase('en-US').includes(wanted));
}
