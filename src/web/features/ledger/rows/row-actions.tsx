/** Edit, Pay, Clear and Delete for one ledger row; each is enabled only when the status rules allow it. */
import { useEffect, useRef } from 'react';
import { Button } from '../../../components/button.js';
import type { LedgerTransactionView } from '../../../../contract/codecs.js';
import { canClear, canEdit, canPay } from '../../../../domain/ledger.js';

export interface RowActionHandlers {
  readonly onEdit: (transaction: LedgerTransactionView) => void;
  readonly onPay: (transaction: LedgerTransactionView) => void;
  readonly onClear: (transaction: LedgerTransactionView) => void;
  /** Asks first: deleting cannot be undone. */
  readonly onDelete: (transaction: LedgerTransactionView) => void;
}

interface RowActionsProps {
  readonly transaction: LedgerTransactionView;
  readonly actions: RowActionHandlers;
}

export function RowActions({ transaction, actions }: RowActionsProps) {
  const { name, status, fromBank } = transaction;
  const clearButton = useRef<HTMLButtonElement>(null);
  const paidByThisRow = useRef(false);

  // Paying disables the focused Pay button, which would drop keyboard focus to the page's start;
  // Clear is the row's next step, so focus moves there instead.
  useEffect(() => {
    if (!paidByThisRow.current || status === 'PENDING') return;
    paidByThisRow.current = false;
    if (canClear(status)) clearButton.current?.focus({ preventScroll: true });
  }, [status]);

  // The visible word starts the accessible name, and the row's name tells identical buttons apart.
  return (
    <div className="ledger-actions">
      <Button
        size="sm"
        variant="outline-secondary"
        aria-label={`Edit ${name}`}
        disabled={!canEdit(status)}
        onClick={() => actions.onEdit(transaction)}
      >
        Edit
      </Button>
      <Button
        size="sm"
        variant="outline-primary"
        aria-label={`Pay ${name}`}
        disabled={!canPay(status)}
        onClick={() => {
          paidByThisRow.current = true;
          actions.onPay(transaction);
        }}
      >
        Pay
      </Button>
      <Button
        ref={clearButton}
        size="sm"
        variant="outline-success"
        aria-label={`Clear ${name}`}
        disabled={!canClear(status)}
        onClick={() => actions.onClear(transaction)}
      >
        Clear
      </Button>
      <Button
        size="sm"
        variant="outline-danger"
        aria-label={`Delete ${name}`}
        // The domain's checkDeletion is this rule (a bank row goes whatever its status, decision 0084);
        // importing it here would pull its refusal messages into the first view.
        disabled={!canEdit(status) && fromBank !== true}
        onClick={() => actions.onDelete(transaction)}
      >
        Delete
      </Button>
    </div>
  );
}
