/**
 * The ledger's rows and pay period lines, as the wide table or the compact list. A chunk of its
 * own (ledger-section.tsx loads it alongside the ledger's request): the rows show only once the
 * ledger has arrived, so their code need not be in the first view's script (decision 0009); nor
 * need what their buttons do, painting a Pay or a Clear at once (use-row-actions.ts).
 */
import { useMemo } from 'react';
import type { LedgerTransactionView } from '../../../../contract/codecs.js';
import type { PayPeriod } from '../../../../domain/forecast.js';
import type { LedgerWrites } from '../use-held-ledger.js';
import { LedgerCompactList } from './ledger-compact-list.js';
import { ledgerItems } from './ledger-items.js';
import { LedgerTable } from './ledger-table.js';
import { useRowActions } from './use-row-actions.js';

export interface LedgerRowsProps {
  /** The rows that pass the filter and the search, in row order. */
  readonly shown: readonly LedgerTransactionView[];
  readonly periods: readonly PayPeriod[];
  /** True when no row is hidden: then every pay period has its line, an empty one too. */
  readonly everyRowShown: boolean;
  readonly isWide: boolean;
  /** The section's writes: Pay and Clear go through them, painted over the ledger it holds. */
  readonly writes: LedgerWrites;
  readonly onEdit: (transaction: LedgerTransactionView) => void;
  /** Asks first: deleting cannot be undone. */
  readonly onDelete: (transaction: LedgerTransactionView) => void;
  /**
   * For a window of the ledger (decision 0053): how many items the whole ledger lists (every row
   * and every pay period's line), of which `shown` and `periods` make the first; and what to call
   * when the user scrolls past them.
   */
  readonly itemCount?: number;
  readonly onPastLoaded?: () => void;
}

export function LedgerRows({ shown, periods, everyRowShown, isWide, writes, onEdit, onDelete, itemCount, onPastLoaded }: LedgerRowsProps) {
  const actions = useRowActions(writes, onEdit, onDelete);
  const items = useMemo(() => ledgerItems(shown, periods, everyRowShown), [shown, periods, everyRowShown]);
  const partial = { itemCount, onPastLoaded };
  return isWide ? (
    <LedgerTable items={items} actions={actions} {...partial} />
  ) : (
    <LedgerCompactList items={items} actions={actions} {...partial} />
  );
}
