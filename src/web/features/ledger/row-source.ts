/** Where a row came from, and what it is tied to, in the words the Edit Transaction dialog shows. */
import type { RowSourceInfo, TransferLinkInfo } from '../../../contract/ledger.js';
import type { ScheduleKind, TransactionType } from '../../../domain/ledger.js';
import { formatDateText } from './dialogs/dialog-dates.js';

/**
 * The names of the user's deposits and expenses by id, handed down by the shell (features do not
 * import each other); null for a list that has not loaded, whose names are unknown. With them the
 * names of the user's accounts, to name a transfer's other side (left out with one account).
 */
export type ScheduleNames = Readonly<Record<ScheduleKind, ReadonlyMap<string, string> | null>> & {
  readonly accounts?: ReadonlyMap<string, string> | null;
};

const WORDS: Readonly<Record<ScheduleKind, { readonly anyOne: string; readonly when: string }>> = {
  deposit: { anyOne: 'a deposit', when: 'paid' },
  expense: { anyOne: 'an expense', when: 'due' },
};

/** What to say about a row's source: nothing for a row added by hand. */
export function rowSourceLines(source: RowSourceInfo | null, names: ScheduleNames): string[] {
  if (source === null) return [];
  const { kind, occurrence } = source;
  // A card payment (decision 0045) follows its card's statement, re-projected when the card's rows change.
  if (kind === 'card') {
    const from = `Pays your card's statement closing on ${formatDateText(occurrence)}.`;
    return source.edited ? [from, 'You changed this row, so changes to the card no longer reach it.'] : [from];
  }
  const namesOfKind = names[kind];
  const on = `${WORDS[kind].when} on ${formatDateText(occurrence)}`;
  const name = namesOfKind?.get(source.id);
  // A deleted schedule changes no more, so whether the row was edited no longer matters.
  if (namesOfKind !== null && name === undefined) return [`From ${WORDS[kind].anyOne} you have since deleted, ${on}.`];
  // With the list not loaded the name is unknown, not gone.
  const from = name === undefined ? `From one of your ${kind}s, ${on}.` : `From your ${kind} ${name}, ${on}.`;
  if (!source.edited) return [from];
  return [from, `You changed this row, so changes to ${name ?? `that ${kind}`} no longer reach it.`];
}

/**
 * A side of a transfer (decision 0043): its other side is a row of another account, which an edit
 * of the date, amount or name changes too and a delete deletes (the server does both); said before
 * the user does either. Nothing for a row that is no transfer.
 */
export function transferLines(transfer: TransferLinkInfo | undefined, type: TransactionType, names: ScheduleNames): string[] {
  if (transfer === undefined) return [];
  const other = names.accounts?.get(transfer.accountId);
  const where = other === undefined ? 'another of your accounts' : other;
  const there = other === undefined ? 'there' : `in ${other}`;
  return [
    `A transfer ${type === 'D' ? 'to' : 'from'} ${where}: changing its date, amount or name changes its other side ${there} too, and deleting it deletes both.`,
  ];
}
