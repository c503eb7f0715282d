/**
 * What the Edit, Pay, Clear and Delete buttons of every row do. One handlers object serves all rows and
 * keeps its identity, so memoized rows are not rendered again because of it.
 */
import { useMemo, useRef } from 'react';
import { type LedgerInfo, type LedgerTransaction, transactionUpdateSchema } from '../../../../contract/ledger.js';
import type { TransactionStatus } from '../../../../domain/ledger.js';
import { useApiClient } from '../../../api/api-context.js';
import { checkForm, type RunCall } from '../../../components/field-errors.js';
import { useLatestCallback } from '../../../components/use-latest-callback.js';
import type { RowActionHandlers } from './row-actions.js';

export function useRowActions(
  run: RunCall<LedgerInfo>,
  onError: (error: unknown) => void,
  onEdit: (transaction: LedgerTransaction) => void,
  onDelete: (transaction: LedgerTransaction) => void,
): RowActionHandlers {
  const api = useApiClient();
  const edit = useLatestCallback(onEdit);
  const remove = useLatestCallback(onDelete);
  // Rows whose status move is on its way: a second click must not send it twice.
  const movingRowIds = useRef(new Set<string>());

  /** Sends the whole row with its new status, and only when that changes the row. */
  const moveStatus = useLatestCallback(async (transaction: LedgerTransaction, status: TransactionStatus) => {
    const checked = checkForm(transactionUpdateSchema, { ...transaction, status });
    if (!checked.ok) {
      // Only a row the server sent malformed gets here; say which, rather than fail silently.
      onError(new Error(`The row ${transaction.name} on ${transaction.date} cannot be sent: ${Object.values(checked.fields).join(' ')}`));
      return;
    }
    // A move to the status the row already has changes nothing (decideUpdate's 'unchanged'): nothing to send.
    if (status === transaction.status || movingRowIds.current.has(transaction.id)) return;
    movingRowIds.current.add(transaction.id);
    try {
      await run(() => api.updateTransaction(checked.value));
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
