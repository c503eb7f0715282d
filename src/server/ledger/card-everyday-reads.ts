/**
 * Everyday spending on a card, as a read of either side counts it (issue 36, decision 0101): the
 * card's own ledger and its Pay From account's see each statement's payment include the everyday
 * spending of its period. Nothing is stored: the stored rows are read, the shares are added to a
 * copy of them, and the forecast, the what-if and the shortfall notification weigh that copy.
 */
import { isoDate, type IsoDate } from '../../domain/calendar-date.js';
import { type CardEverydayShares, everydayCardShares, withEverydayShares } from '../../domain/card-everyday.js';
import { cardPaymentName } from '../../domain/card-payments.js';
import type { LedgerRow, SourceRef } from '../../domain/ledger.js';
import { occurrenceKey } from '../../domain/ledger-projection.js';
import type { Caller } from '../auth/access-token.js';
import type { OpenDatabase } from '../db/database.js';
import { findAccount, type StoredAccount } from './account-record.js';
import { findLedgerWithRows, type LedgerWithRows } from './ledger-reads.js';
import { ledgerScope } from './ledger-store.js';
import type { OutlookSettings } from './outlook.js';
import { skippedOccurrences } from './skipped-occurrences.js';

/** An account's rows as its forecast weighs them, and how many rows were read for it beside its own. */
interface ForecastRows {
  readonly rows: readonly LedgerRow[];
  readonly otherRowsRead: number;
  /** The card's shares as counted in `rows`; null when none are (the rows are the stored ones). */
  readonly shares: CardEverydayShares | null;
}

/**
 * The account's rows with everyday spending's share of its card's statement payments counted,
 * when everyday spending comes out of a card and the account is that card or the account that pays
 * it; else the stored rows themselves (the same array, so an answer without it is what it was).
 */
export async function forecastRows(
  database: OpenDatabase,
  owner: Caller,
  settings: Pick<OutlookSettings, 'today' | 'everyday'>,
  account: StoredAccount,
  found: LedgerWithRows,
): Promise<ForecastRows> {
  const unchanged = { rows: found.rows, otherRowsRead: 0, shares: null };
  const everyday = settings.everyday;
  if (!everyday) return unchanged;
  const card = everyday.accountId === account.id ? account : await findAccount(database.db, owner, everyday.accountId);
  if (!card?.card || card.kind !== 'CARD') return unchanged;
  const side = account.id === card.id ? 'C' : account.id === card.card.payFromAccountId ? 'D' : undefined;
  if (side === undefined) return unchanged;
  const scope = ledgerScope(database, owner);
  const other = await findLedgerWithRows(scope, side === 'C' ? card.card.payFromAccountId : card.id);
  if (!other) return unchanged;
  const [cardFound, payFound] = side === 'C' ? [found, other] : [other, found];
  const ref: SourceRef = { kind: 'card', id: card.id };
  const prefix = occurrenceKey({ ...ref, occurrence: '' });
  const skipped = new Set<IsoDate>();
  for (const { ledger } of [cardFound, payFound]) {
    for (const key of await skippedOccurrences(scope, ledger.id, ref)) skipped.add(isoDate(key.slice(prefix.length)));
  }
  const shares = everydayCardShares({
    cardId: card.id,
    card: card.card,
    ledger: cardFound.ledger,
    rows: cardFound.rows,
    payLedger: { from: payFound.ledger.startDate, to: payFound.ledger.endDate },
    today: settings.today,
    weekly: everyday.weekly,
    skipped,
  });
  if (shares.length === 0) return { ...unchanged, otherRowsRead: other.rows.length };
  const name = cardPaymentName(card.name);
  return {
    rows: withEverydayShares(found.rows, card.id, side, name, shares),
    otherRowsRead: other.rows.length,
    shares: { cardId: card.id, side, name, shares },
  };
}
