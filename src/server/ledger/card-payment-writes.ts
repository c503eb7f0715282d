/**
 * Credit-card payments in the ledgers (issue 25 item 4, decision 0045). Each card's payments are a
 * transfer pair per statement: a debit in its Pay From account's ledger and a credit in the card's,
 * on the statement's due date, both generated rows of the card (source `card`, the card's id, the
 * statement's closing date). After a write changes a card's rows (or its settings, or either
 * ledger's dates), its open payments (PENDING, never edited, due from today on, on both sides) are
 * projected afresh by the domain's rule; the others stand, as paid or edited rows of a schedule
 * do. Every write goes through the ledgers' stores under the owner's lock, so it is journaled with
 * the write that caused it: an undo of that write puts the payments back too.
 */
import { type IsoDate, maxDate } from '../../domain/calendar-date.js';
import { type CardPayment, cardPaymentName, projectCardPayments, statementMonth } from '../../domain/card-payments.js';
import type { SourceRef } from '../../domain/ledger.js';
import { occurrenceKey } from '../../domain/ledger-projection.js';
import type { DateRange } from '../../domain/schedules.js';
import { newId } from '../db/ids.js';
import { listAccounts, type StoredAccount } from './account-record.js';
import type { LedgerStore, LockedStores } from './ledger-store.js';
import type { StoredRow } from './transaction-rows.js';

/** What else a write asks to follow, beside the cards whose ledgers it changed. */
export interface CardFollowing {
  /** Cards whose settings (or name) the write changed. */
  readonly cards?: readonly string[];
  /** Accounts whose ledgers the write created or extended: the cards they pay follow too. */
  readonly payingFrom?: readonly string[];
  /** The account each card paid from before the write, when the write changed it: its open payments there go. */
  readonly formerPayFrom?: ReadonlyMap<string, string>;
  /** A New Ledger: the statements before today are projected too, as a new ledger's schedules are. */
  readonly fromStart?: boolean;
}

/** What the payments' writes did to each ledger: rows added (or changed) and removed, for a changes answer. */
export type CardWrites = Map<LedgerStore, { readonly changed: string[]; readonly removed: string[] }>;

type CardAccount = StoredAccount & { readonly card: NonNullable<StoredAccount['card']> };

function isCard(account: StoredAccount): account is CardAccount {
  return account.kind === 'CARD' && account.card !== null;
}

/**
 * Re-projects the open payments of every card this write touched: the cards whose ledgers it
 * changed, and those `following` names. Answers what it wrote per ledger. A follower of the unit of
 * work (ledger-write.ts), which runs it once at the end of every write and moves the versions after.
 */
export async function followCards(
  locked: LockedStores,
  /** The owner's today, read only when a card is concerned: most writes never need it. */
  today: () => Promise<IsoDate>,
  following: CardFollowing = {},
): Promise<CardWrites> {
  const writes: CardWrites = new Map();
  const wanted = new Set(following.cards ?? []);
  for (const store of locked.openedStores()) if (store.account.kind === 'CARD' && !store.unchanged) wanted.add(store.account.id);
  const payingFrom = new Set(following.payingFrom ?? []);
  // Nothing to read when no card can be concerned: the common write of a checking account's rows.
  if (wanted.size === 0 && payingFrom.size === 0) return writes;
  const day = await today();
  // The settings as they are now: a write may just have changed them.
  for (const account of await listAccounts(locked.db, locked.owner)) {
    if (!isCard(account) || !(wanted.has(account.id) || payingFrom.has(account.card.payFromAccountId))) continue;
    await reprojectCard(locked, account, day, following, writes);
  }
  return writes;
}

/** The occurrence (statement closing date) of a row of the card's, as a skipped key's tail is too. */
function occurrenceOf(row: StoredRow): IsoDate {
  if (!row.source) throw new Error('a card payment row without its source');
  return row.source.occurrence;
}

async function reprojectCard(
  locked: LockedStores,
  card: CardAccount,
  today: IsoDate,
  following: CardFollowing,
  writes: CardWrites,
): Promise<void> {
  const ref: SourceRef = { kind: 'card', id: card.id };
  const cardStore = await locked.store({ id: card.id });
  const payStore = await locked.storeOf(card.card.payFromAccountId);
  const former = following.formerPayFrom?.get(card.id);
  const formerStore = former !== undefined && former !== card.card.payFromAccountId ? await locked.storeOf(former) : undefined;
  const sides = [cardStore, payStore, formerStore].filter((store): store is LedgerStore => store?.ledger !== undefined);

  const cardLedger = cardStore.ledger;
  const payLedger = payStore?.ledger;
  // Both sides only where both ledgers reach.
  const overlap: DateRange | undefined =
    cardLedger && payLedger
      ? {
          from: maxDate(cardLedger.startDate, payLedger.startDate),
          to: cardLedger.endDate < payLedger.endDate ? cardLedger.endDate : payLedger.endDate,
        }
      : undefined;
  const openFrom = overlap ? maxDate(today, overlap.from) : today;
  const follows = (row: StoredRow) => row.status === 'PENDING' && row.source?.edited === false && row.date >= openFrom;

  // A payment stands when either side of it is paid, cleared, edited or past: both sides stay.
  const rowsBySide = new Map<LedgerStore, StoredRow[]>();
  const standing = new Set<IsoDate>();
  for (const store of sides) {
    const rows = await store.scheduleRows(ref);
    rowsBySide.set(store, rows);
    for (const row of rows) if (!follows(row)) standing.add(occurrenceOf(row));
  }
  const open = new Map<IsoDate, { store: LedgerStore; row: StoredRow }[]>();
  const removing = new Map<LedgerStore, StoredRow[]>();
  for (const [store, rows] of rowsBySide) {
    for (const row of rows) {
      if (!follows(row) || standing.has(occurrenceOf(row))) continue;
      // What a card paid from before stops receiving its open payments.
      if (store === formerStore) addTo(removing, store, row);
      else addTo(open, occurrenceOf(row), { store, row });
    }
  }

  let payments: CardPayment[] = [];
  if (overlap && cardLedger && payStore) {
    const filled = new Set([...standing].map(statementMonth));
    const prefix = occurrenceKey({ ...ref, occurrence: '' });
    for (const store of [cardStore, payStore]) {
      for (const key of await store.skipped(ref)) filled.add(statementMonth(key.slice(prefix.length) as IsoDate));
    }
    const openIds = new Set([...open.values()].flat().map(({ row }) => row.id));
    const rows = (await cardStore.rows()).filter((row) => !openIds.has(row.id));
    payments = projectCardPayments({
      card: card.card,
      openingBalance: cardLedger.openingBalance,
      rows,
      span: { from: cardLedger.startDate, to: cardLedger.endDate },
      filled,
      reach: { from: following.fromStart ? overlap.from : openFrom, to: overlap.to },
    });
  }

  const name = cardPaymentName(card.name);
  const adding: CardPayment[] = [];
  for (const payment of payments) {
    const sidesOfIt = open.get(payment.closing) ?? [];
    open.delete(payment.closing);
    if (payStore && isPair(sidesOfIt, cardStore, payStore, { date: payment.due, name, amount: payment.amount })) continue;
    for (const { store, row } of sidesOfIt) addTo(removing, store, row);
    adding.push(payment);
  }
  for (const sidesOfIt of open.values()) for (const { store, row } of sidesOfIt) addTo(removing, store, row);

  const written = (store: LedgerStore) => {
    const known = writes.get(store) ?? { changed: [], removed: [] };
    writes.set(store, known);
    return known;
  };
  for (const [store, rows] of removing) {
    await store.deleteRows(rows);
    written(store).removed.push(...rows.map((row) => row.id));
  }
  if (adding.length > 0 && payStore) {
    const pairs = adding.map((payment) => ({ payment, cardId: newId(), payId: newId() }));
    const row = (payment: CardPayment) => ({
      date: payment.due,
      name,
      amount: payment.amount,
      source: { kind: 'card' as const, id: card.id, occurrence: payment.closing },
    });
    const credits = await cardStore.insert(
      pairs.map(({ payment, cardId, payId }) => ({
        ...row(payment),
        id: cardId,
        type: 'C' as const,
        transfer: { id: payId, accountId: payStore.account.id },
      })),
      undefined,
      'schedule',
    );
    const debits = await payStore.insert(
      pairs.map(({ payment, cardId, payId }) => ({
        ...row(payment),
        id: payId,
        type: 'D' as const,
        transfer: { id: cardId, accountId: card.id },
      })),
      undefined,
      'schedule',
    );
    written(cardStore).changed.push(...credits.map((credit) => credit.id));
    written(payStore).changed.push(...debits.map((debit) => debit.id));
  }
}

function addTo<K, V>(map: Map<K, V[]>, key: K, value: V): void {
  const known = map.get(key);
  if (known) known.push(value);
  else map.set(key, [value]);
}

/** The open sides of one statement are exactly the pair the payment asks for: they stay, ids and all. */
function isPair(
  sides: readonly { store: LedgerStore; row: StoredRow }[],
  cardStore: LedgerStore,
  payStore: LedgerStore,
  wanted: { date: IsoDate; name: string; amount: number },
): boolean {
  if (sides.length !== 2) return false;
  const credit = sides.find(({ store }) => store === cardStore)?.row;
  const debit = sides.find(({ store }) => store === payStore)?.row;
  const same = (row: StoredRow | undefined) => row?.date === wanted.date && row.name === wanted.name && row.amount === wanted.amount;
  return (
    same(credit) &&
    same(debit) &&
    credit?.type === 'C' &&
    debit?.type === 'D' &&
    credit.transfer?.id === debit.id &&
    debit.transfer?.id === credit.id &&
    debit.transfer.accountId === cardStore.account.id &&
    credit.transfer.accountId === payStore.account.id
  );
}

/**
 * Before a card's account is deleted (decision 0045): its open payments leave every other ledger,
 * the ones that stand there become ordinary rows (no source, no link), and what those ledgers
 * skipped of it is forgotten. Not undoable, as deleting an account is not.
 */
export async function forgetCard(locked: LockedStores, card: StoredAccount, today: IsoDate): Promise<void> {
  const ref: SourceRef = { kind: 'card', id: card.id };
  for (const account of await listAccounts(locked.db, locked.owner)) {
    if (account.id === card.id || account.kind === 'CARD') continue;
    const store = await locked.store({ id: account.id });
    if (!store.ledger) continue;
    const from = maxDate(today, store.ledger.startDate);
    const rows = await store.scheduleRows(ref);
    const open = rows.filter((row) => row.status === 'PENDING' && row.source?.edited === false && row.date >= from);
    const stand = rows.filter((row) => !open.includes(row));
    await store.deleteRows(open);
    await store.makeOrdinary(stand);
    await store.forgetSkipped(ref);
  }
}
