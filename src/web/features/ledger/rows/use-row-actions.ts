/**
 * What the Edit, Pay, Clear and Delete buttons of every row do. One handlers object serves all rows and
 * keeps its identity, so memoized rows are not rendered again because of it.
 */
import { useMemo, useRef } from 'react';
import type { LedgerInfo, LedgerTransaction } from '../../../../contract/ledger.js';
import type { TransactionUpdate } from '../../../../contract/ledger-requests.js';
import type { IsoDate } from '../../../../domain/calendar-date.js';
import type { TransactionStatus } from '../../../../domain/ledger.js';
import { useApiClient } from '../../../api/api-context.js';
import type { HeldLedger } from '../../../api/api-client.js';
import type { RunCall } from '../../../components/field-errors.js';
import { useLatestCallback } from '../../../components/use-latest-callback.js';
import type { RowActionHandlers } from './row-actions.js';

export function useRowActions(
  run: RunCall<LedgerInfo>,
  heldLedger: HeldLedger,
  onEdit: (transaction: LedgerTransaction) => void,
  onDelete: (transaction: LedgerTransaction) => void,
): RowActionHandlers {
  const api = useApiClient();
  const edit = useLatestCallback(onEdit);
  const remove = useLatestCallback(onDelete);
  // Rows whose status move is on its way: a second click must not send it twice.
  const movingRowIds = useRef(new Set<string>());

  /**
   * Sends the row as the server gave it, with its new status, and only when that changes the row.
   * The row passed the contract's answer check on arrival, and the server checks the request again:
   * checking it here too would put the request schemas in the first view's script (benchmark 4a).
   */
  const moveStatus = useLatestCallback(async (transaction: LedgerTransaction, status: TransactionStatus) => {
    // A move to the status the row already has changes nothing (decideUpdate's 'unchanged'): nothing to send.
    if (status === transaction.status || movingRowIds.current.has(transaction.id)) return;
    movingRowIds.current.add(transaction.id);
    try {
      const { id, date, name, type, amount } = transaction;
      // The server's own date for the row, sent back as it came.
      const update: TransactionUpdate = { id, date: date as IsoDate, name, type, amount, status };
      await run(() => api.updateTransaction(update, heldLedger));
    } finally {
      movingRowIds.current.delete(transaction.id);
    }
  });

  return useMemo(
    () => ({
      onEdit: edit,
      onPay: (transaction) => void moveStatus(transaction, 'PAID'),
      onClear: (transaction) => void moveStatus(transaction, 'CLEARED'),
      onDelete: remove,
    }),
    [edit, moveStatus, remove],
  );
}
