/**
 * Transfers between two of the owner's accounts (decision 0043): a debit in one ledger and a
 * credit in the other that name each other. The pair shares its date, amount and name, each side
 * keeps its own status (paid and cleared move with each bank), and the two sides are of the other
 * type. These are the rules; the server's transfer follower (server/ledger/transfers.ts) applies
 * them after every ledger write.
 */
import type { IsoDate } from './calendar-date.js';
import type { LedgerRow, TransactionType, TransferLink } from './ledger.js';
import type { Cents } from './money.js';
import { canEdit } from './ledger.js';

/** What both sides of a transfer share. */
export interface SharedFields {
  readonly date: IsoDate;
  readonly name: string;
  readonly amount: Cents;
}

/** The other side's type: a debit's other side is a credit, and the other way round. */
export function otherType(type: TransactionType): TransactionType {
  return type === 'D' ? 'C' : 'D';
}

/** Whether `other` is `side`'s other side: each names the other, they are of other types, and they share date, amount and name. */
export function isPairedWith(side: LedgerRow, other: LedgerRow): boolean {
  return (
    side.transfer?.id === other.id &&
    other.transfer?.id === side.id &&
    other.type === otherType(side.type) &&
    other.date === side.date &&
    other.amount === side.amount &&
    other.name === side.name
  );
}

/** Why the other side cannot follow an edit or a delete of this one: it is no longer PENDING. */
export type OtherSideRefusal = { readonly kind: 'other-side-settled'; readonly status: LedgerRow['status'] };

/**
 * What an edit of one side (its new date, name and amount) does to the other side: the same
 * three, with the other side's own status; refused while the other side is paid or cleared.
 */
export function followEdit(
  edited: SharedFields,
  other: LedgerRow,
): { readonly changes: SharedFields & { readonly status: LedgerRow['status'] } } | OtherSideRefusal {
  if (!canEdit(other.status)) return { kind: 'other-side-settled', status: other.status };
  return { changes: { date: edited.date, name: edited.name, amount: edited.amount, status: other.status } };
}

/** A delete of one side deletes the other, which PRODUCT.md's rule lets go only while it is PENDING. */
export function followDelete(other: LedgerRow): OtherSideRefusal | undefined {
  return canEdit(other.status) ? undefined : { kind: 'other-side-settled', status: other.status };
}

/** What pairing reads of a row: its id, its link, and the occurrence it stands for. */
export interface PairableRow {
  readonly id: string;
  readonly transfer?: TransferLink | null;
  readonly source?: { readonly occurrence: IsoDate } | null;
}

/** A row of a recurring transfer's schedule, in the account whose ledger holds it. */
export interface ScheduleSide<Row extends PairableRow = PairableRow> {
  readonly accountId: string;
  readonly row: Row;
}

/** A link to write: the side's row names `link` as its other side, or no side. */
export interface LinkChange<Row extends PairableRow = PairableRow> {
  readonly side: ScheduleSide<Row>;
  readonly link: TransferLink | null;
}

/**
 * Which links a recurring transfer's rows should carry (decision 0043). `sides` are the rows of one
 * expense in every ledger read; `transfer` its accounts now (undefined once it is an ordinary bill);
 * `paired` the ids of rows already paired with a row that names them back, which stay as they are
 * (a side kept from before the expense changed). Each other debit in From pairs with the credit in
 * To of the same occurrence; every row left over carries no link. Answers only the links that change.
 * Linear in the rows.
 */
export function pairRecurringSides<Row extends PairableRow>(
  sides: readonly ScheduleSide<Row>[],
  transfer: { readonly from: string; readonly to: string } | undefined,
  paired: ReadonlySet<string>,
): LinkChange<Row>[] {
  const changes: LinkChange<Row>[] = [];
  const link = (side: ScheduleSide<Row>, target: TransferLink | null) => {
    const current = side.row.transfer ?? null;
    if (current?.id === target?.id && current?.accountId === target?.accountId) return;
    changes.push({ side, link: target });
  };
  const free = sides.filter((side) => side.row.source && !paired.has(side.row.id));
  const freeCredits = new Map<IsoDate, ScheduleSide<Row>>();
  if (transfer) {
    for (const side of free) {
      const occurrence = side.row.source?.occurrence;
      if (side.accountId === transfer.to && occurrence !== undefined && !freeCredits.has(occurrence)) freeCredits.set(occurrence, side);
    }
  }
  const linked = new Set<string>();
  for (const side of free) {
    const occurrence = side.row.source?.occurrence;
    if (!transfer || side.accountId !== transfer.from || occurrence === undefined) continue;
    const credit = freeCredits.get(occurrence);
    freeCredits.delete(occurrence);
    link(side, credit ? { id: credit.row.id, accountId: transfer.to } : null);
    linked.add(side.row.id);
    if (credit) {
      link(credit, { id: side.row.id, accountId: transfer.from });
      linked.add(credit.row.id);
    }
  }
  // Credits with no debit of their occurrence, and rows in a ledger the expense no longer pays into.
  for (const side of free) if (!linked.has(side.row.id)) link(side, null);
  return changes;
}
