/** The budget menu's items and the dialogs they open; loaded when the menu first opens. */
import { type RefObject, useId, useState } from 'react';
import { useMenuDismissal } from '../../components/use-menu-dismissal.js';
import { Form } from 'react-bootstrap';
import type { Budget } from '../../../contract/budgets.js';
import { useBudgetsApi } from '../../api/budget-calls.js';
import { Button } from '../../components/button.js';
import { useDialogState } from '../../components/use-dialog-state.js';
import { navigate } from '../../navigation.js';
import { ROLE_WORDS } from './budget-words.js';
import { MembersDialog } from './members-dialog.js';
import { NewBudgetDialog } from './new-budget-dialog.js';
import type { BudgetList } from './use-budgets.js';

interface BudgetPanelProps {
  readonly id: string;
  readonly open: boolean;
  /** The menu's button and panel: a click outside it closes the menu. */
  readonly within: RefObject<HTMLElement | null>;
  readonly list: BudgetList;
  readonly onClose: () => void;
}

/**
 * Opens `budget` in the view on screen (decision 0092). The view's other choices (an account's
 * ledger) belong to the budget left, so they are not carried over; the invitation page has nothing
 * to show in a budget, so it goes Home.
 */
export function openBudget(budget: Budget): void {
  const view = window.location.pathname === '/join' ? '/' : window.location.pathname;
  navigate(view, { budget: budget.personal ? null : budget.id });
  window.scrollTo(0, 0);
}

export function BudgetPanel({ id, open, within, list, onClose }: BudgetPanelProps) {
  const api = useBudgetsApi();
  const creating = useDialogState<null>(null);
  const members = useDialogState<null>(null);
  const { budgets, current } = list;
  const notifyId = useId();
  const [notifyFailed, setNotifyFailed] = useState(false);

  async function setNotify(budget: Budget, notify: boolean) {
    setNotifyFailed(false);
    try {
      await api.setBudgetNotify(budget.id, notify);
    } catch {
      setNotifyFailed(true);
    }
    // Either way the switch shows what the server holds.
    list.reload();
  }

  useMenuDismissal(open, within, onClose);

  function switchTo(budget: Budget) {
    onClose();
    if (budget.id !== current?.id) openBudget(budget);
  }

  return (
    <>
      {open && (
        <div id={id} className="your-data__menu card shadow" data-bs-theme="light">
          <div className="card-body d-grid gap-2">
            <ul className="list-unstyled d-grid gap-1 mb-1" aria-label="Your budgets">
              {(budgets ?? []).map((budget) => (
                <li key={budget.id}>
                  <Button
                    variant={budget.id === current?.id ? 'primary' : 'outline-primary'}
                    size="sm"
                    className="w-100 text-start"
                    aria-current={budget.id === current?.id ? 'true' : undefined}
                    onClick={() => switchTo(budget)}
                  >
                    {budget.name} <span className="small">({budget.personal ? 'yours' : ROLE_WORDS[budget.role]})</span>
                  </Button>
                </li>
              ))}
            </ul>
            {current ? (
              // Each member's own choice for the budget in view (decision 0099): by their rules and channels in Settings.
              <Form.Check
                id={notifyId}
                type="switch"
                role="switch"
                className="small mb-1"
                label={`Notify me about ${current.name}`}
                checked={current.notify}
                isInvalid={notifyFailed}
                feedback="Could not change it. Try again."
                feedbackType="invalid"
                onChange={(event) => void setNotify(current, event.target.checked)}
              />
            ) : null}
            <Button
              variant="outline-success"
              size="sm"
              onClick={() => {
                onClose();
                creating.show(null);
              }}
            >
              New budget
            </Button>
            {current && !current.personal ? (
              <Button
                variant="outline-secondary"
                size="sm"
                onClick={() => {
                  onClose();
                  members.show(null);
                }}
              >
                Members
              </Button>
            ) : null}
          </div>
        </div>
      )}
      <NewBudgetDialog
        key={`new-${creating.session}`}
        show={creating.open}
        onCreate={async (name) => {
          const made = await api.createBudget(name);
          list.reload();
          creating.close();
          openBudget(made);
        }}
        onClose={creating.close}
      />
      {current && !current.personal ? (
        <MembersDialog
          key={`members-${members.session}`}
          show={members.open}
          budget={current}
          onLeft={() => {
            members.close();
            navigate('/', { budget: null });
          }}
          onClose={members.close}
        />
      ) : null}
    </>
  );
}
