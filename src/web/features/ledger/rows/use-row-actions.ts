/**
 * What the Edit, Pay, Clear and Delete buttons of every row do. One handlers object serves all rows and
 * keeps its identity, so memoized rows are not rendered again because of it. In the rows' chunk,
 * not the first view's script (benchmark 4a), like the painting of status moves it uses.
 */
import { useMemo } from 'react';
import { encodeCents, type LedgerTransactionView } from '../../../../contract/codecs.js';
import type { TransactionUpdate } from '../../../../contract/ledger-requests.js';
import type { TransactionStatus } from '../../../../domain/ledger.js';
import { useApiClient } from '../../../api/api-context.js';
import { paintStatusMoves } from '../../../api/status-moves.js';
import { useLatestCallback } from '../../../components/use-latest-callback.js';
import type { LedgerWrites } from '../use-held-ledger.js';
import type { RowActionHandlers } from './row-actions.js';

export function useRowActions(
  writes: LedgerWrites,
  onEdit: (transaction: LedgerTransactionView) => void,
  onDelete: (transaction: LedgerTransactionView) => void,
): RowActionHandlers {
  const api = useApiClient();
  const edit = useLatestCallback(onEdit);
  const remove = useLatestCallback(onDelete);

  /**
   * Paints the move at once (the row's badge, the balances), then sends the row as the server gave
   * it, with its new status, and only when that changes the row. The row passed the contract's
   * answer check on arrival, and the server checks the request again: checking it here too would
   * put the request schemas in the page's script.
   */
  const moveStatus = useLatestCallback(async (transaction: LedgerTransactionView, status: TransactionStatus) => {
    const { run, heldLedger, moves, repaint } = writes;
    const { id, date, name, type, amount } = transaction;
    // A move to the status the row already has changes nothing (decideUpdate's 'unchanged'), and a
    // second click while the row's move is on its way must not send it twice.
    if (status === transaction.status || moves.has(id)) return;
    moves.set(id, status);
    repaint(paintStatusMoves);
    // Requests carry dollars (decision 0034): the amount goes back as the server gave it.
    const update: TransactionUpdate = { id, date, name, type, amount: encodeCents(amount), status };
    await run(async () => {
      try {
        // The undo status names the move: "Paid Rent.", "Cleared Rent."
        return await api.updateTransaction(update, heldLedger, `${status === 'PAID' ? 'Paid' : 'Cleared'} ${name}.`);
      } finally {
        // Before the answer is held: it is painted with the moves still on their way, not this one.
        moves.delete(id);
      }
    });
    // A refusal (reported by run, with the server's words): the held ledger shows again, without this move.
    repaint();
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
