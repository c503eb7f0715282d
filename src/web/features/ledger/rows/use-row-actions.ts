/**
 * What the Edit, Pay, Clear and Delete buttons of every row do. One handlers object serves all rows and
 * keeps its identity, so memoized rows are not rendered again because of it.
 */
import { useMemo, useRef } from 'react';
import { encodeCents, type LedgerInfoView, type LedgerTransactionView } from '../../../../contract/codecs.js';
import type { TransactionUpdate } from '../../../../contract/ledger-requests.js';
import type { TransactionStatus } from '../../../../domain/ledger.js';
import { useApiClient } from '../../../api/api-context.js';
import type { HeldLedger } from '../../../api/api-client.js';
import type { RunCall } from '../../../components/field-errors.js';
import { useLatestCallback } from '../../../components/use-latest-callback.js';
import type { RowActionHandlers } from './row-actions.js';

export function useRowActions(
  run: RunCall<LedgerInfoView>,
  heldLedger: HeldLedger,
  onEdit: (transaction: LedgerTransactionView) => void,
  onDelete: (transaction: LedgerTransactionView) => void,
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
  const moveStatus = useLatestCallback(async (transaction: LedgerTransactionView, status: TransactionStatus) => {
    // A move to the status the row already has changes nothing (decideUpdate's 'unchanged'): nothing to send.
    if (status === transaction.status || movingRowIds.current.has(transaction.id)) return;
    movingRowIds.current.add(transaction.id);
    try {
      const { id, date, name, type, amount } = transaction;
      // Requests carry dollars (decision 0034): the amount goes back as the server gave it.
      const update: TransactionUpdate = { id, date, name, type, amount: encodeCents(amount), status };
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
