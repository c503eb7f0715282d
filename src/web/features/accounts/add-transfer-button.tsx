/**
 * The "Add Transfer" button and its dialog (issue 25 item 3, decision 0050), where the user has
 * more than one account: beside Add Transaction in the Ledger view, and in Plan's Accounts
 * section. It makes the call; the view says what to read again once it worked.
 */
import type { LedgerInfoView } from '../../../contract/codecs.js';
import type { NewTransfer } from '../../../contract/transfers.js';
import { useAccountsApi } from '../../api/account-calls.js';
import { useSectionCall } from '../../api/use-section-call.js';
import { Button } from '../../components/button.js';
import { lazyDialog } from '../../components/lazy-dialog.js';
import { useDialogState } from '../../components/use-dialog-state.js';
import type { TransferAccount } from './transfer-form-values.js';

// The dialog's code (its form, the transfer's schema) loads on demand, never with the view.
const AddTransferDialog = lazyDialog(() => import('./add-transfer-dialog.js').then((module) => module.AddTransferDialog));

interface Added {
  readonly transfer: NewTransfer;
  /** From's ledger, as the server answers a transfer. */
  readonly answer: LedgerInfoView;
}

interface AddTransferButtonProps {
  readonly accounts: readonly TransferAccount[];
  /** Where a new transfer starts from: the account the user is looking at. */
  readonly fromAccountId: string;
  /** The transfer was added: the view reads again what it shows of either account. */
  readonly onAdded?: (transfer: NewTransfer, fromLedger: LedgerInfoView) => void;
  readonly onError: (error: unknown) => void;
}

export function AddTransferButton({ accounts, fromAccountId, onAdded, onError }: AddTransferButtonProps) {
  const accountsApi = useAccountsApi();
  const adding = useDialogState(false);
  const run = useSectionCall<Added>(({ transfer, answer }) => onAdded?.(transfer, answer), onError);
  const save = (transfer: NewTransfer) =>
    adding.closeAfter(run(async () => ({ transfer, answer: await accountsApi.addTransfer(transfer) })));
  return (
    <>
      <Button variant="outline-primary" onClick={() => adding.show(true)}>
        Add Transfer
      </Button>
      <AddTransferDialog
        key={`transfer-${adding.session}`}
        show={adding.open}
        accounts={accounts}
        fromAccountId={fromAccountId}
        onSave={save}
        onClose={adding.close}
      />
    </>
  );
}
