/** Recurring income: the monthly total, the list, and the dialogs that add, change and delete. */
import { Button } from '../../components/button.js';
import { type DepositsInfoView, type DepositView, encodeDeposit } from '../../../contract/codecs.js';
import type { DepositInput } from '../../../contract/deposit-input.js';
import { formatUsd } from '../../../domain/money.js';
import { useApiClient } from '../../api/api-context.js';
import { useSectionCall } from '../../api/use-section-call.js';
import { lazyDialog } from '../../components/lazy-dialog.js';
import { loadAlongside } from '../../components/load-alongside.js';
import { VIEW_PATHS } from '../../views/view-nav.js';
import { useEditDeleteDialogs } from '../../components/use-edit-delete-dialogs.js';
import type { ScheduleAccount } from '../../components/schedule-account.js';
import type { SectionProps } from '../section-props.js';

// The table shows only once the deposits have arrived: its code loads alongside their request.
const DepositsTable = loadAlongside(() => import('./deposits-table.js').then((module) => module.DepositsTable), null, VIEW_PATHS.plan);

const DepositDialog = lazyDialog(() => import('./deposit-dialog.js').then((module) => module.DepositDialog));
const ConfirmDeleteDialog = lazyDialog(() =>
  import('../../components/confirm-delete-dialog.js').then((module) => module.ConfirmDeleteDialog),
);

interface DepositsSectionProps extends SectionProps<DepositsInfoView> {
  /** The user's accounts (Plan loads them): with more than one, each deposit names its account. */
  readonly accounts?: readonly ScheduleAccount[] | null | undefined;
}

export function DepositsSection({ info, onChange, onError, accounts }: DepositsSectionProps) {
  const api = useApiClient();
  const { editor, deletion, save, confirmDelete } = useEditDeleteDialogs<DepositView, DepositInput, DepositsInfoView>(
    { add: api.addDeposit, update: api.updateDeposit, remove: api.deleteDeposit },
    useSectionCall(onChange, onError),
  );

  const addButton = (
    <Button variant="primary" onClick={() => editor.show(null)}>
      Add Deposit
    </Button>
  );

  return (
    <>
      {info && info.deposits.length > 0 ? (
        <>
          <div className="d-flex flex-wrap justify-content-between align-items-start gap-2 mb-3">
            <div>
              <h3 className="h5 mb-1">Total Monthly Deposits: {formatUsd(info.totalDeposits)}</h3>
              <p className="small text-body-secondary mb-0">
                A month counts weekly (W) amount × 52 ÷ 12, bi-weekly (BW) amount × 26 ÷ 12, twice a month (SM) × 2, monthly (M) and end of
                month (EOM) once.
              </p>
            </div>
            {addButton}
          </div>
          <DepositsTable accounts={accounts} deposits={info.deposits} onEdit={editor.show} onDelete={deletion.show} />
        </>
      ) : (
        <>
          <p className="text-body-secondary">
            {info ? 'No deposits yet. Add your pay to see what is left over each month.' : 'Deposits are not loaded.'}
          </p>
          {addButton}
        </>
      )}
      <DepositDialog
        key={editor.session}
        show={editor.open}
        // The form edits the deposit as the wire carries it (decision 0034).
        deposit={editor.target && encodeDeposit(editor.target)}
        accounts={accounts}
        onSave={save}
        onClose={editor.close}
      />
      <ConfirmDeleteDialog
        key={`delete-${deletion.session}`}
        show={deletion.open}
        title="Delete Deposit"
        what="the deposit"
        name={deletion.target?.name ?? ''}
        onConfirm={confirmDelete}
        onClose={deletion.close}
      />
    </>
  );
}
