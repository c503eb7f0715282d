/**
 * The header's budget (issue 38) as a user meets it: the budget in view by name, a menu of their
 * budgets that switches the address to another, "New budget" with the server's field messages
 * beside the field, and a viewer told before they try that they can only look. The network is
 * stubbed at the budgets' calls only.
 */
import { render, screen, waitFor, within } from '@testing-library/react';
import { userEvent } from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Budget } from '../../../contract/budgets.js';
import { ApiCallError } from '../../api/api-client.js';
import { ApiClientProvider } from '../../api/api-context.js';
import { BudgetsApiProvider } from '../../api/budgets-api-context.js';
import { markFirstPaint } from '../../first-paint.js';
import { useBudgetInView } from '../../navigation.js';
import { findOpenDialog, waitForDialogToClose } from '../../test-support/dialog-queries.js';
import { fakeApiClient, fakeBudgetsApi, type FakeBudgetsApi } from '../../test-support/fake-api-client.js';
import { BudgetSwitcher } from './budget-switcher.js';
import { useBudgets } from './use-budgets.js';

const PERSONAL: Budget = { id: 'b-mine', name: 'Personal', role: 'OWNER', personal: true, notify: true };
const HOUSEHOLD: Budget = { id: 'b-house', name: 'Household', role: 'OWNER', personal: false, notify: true };
const CABIN: Budget = { id: 'b-cabin', name: 'Cabin', role: 'VIEWER', personal: false, notify: true };

/** The header's part as the page composes it: the list for the budget the address names. */
function Header() {
  const list = useBudgets(useBudgetInView());
  return <BudgetSwitcher list={list} />;
}

function renderHeader(api: FakeBudgetsApi) {
  render(
    <ApiClientProvider client={fakeApiClient()}>
      <BudgetsApiProvider value={api}>
        <Header />
      </BudgetsApiProvider>
    </ApiClientProvider>,
  );
  return userEvent.setup();
}

beforeEach(() => {
  // The personal budget's list waits for the view's first paint (decision 0073): here there is no view.
  markFirstPaint();
  vi.spyOn(window, 'scrollTo').mockImplementation(() => undefined);
});
afterEach(() => {
  window.history.replaceState(null, '', '/');
  vi.restoreAllMocks();
});

describe("the header's budget", () => {
  it('names the budget the address names, and switches to another by changing the address', async () => {
    window.history.replaceState(null, '', '/plan?budget=b-house');
    const api = fakeBudgetsApi({ listBudgets: vi.fn(async () => [PERSONAL, HOUSEHOLD, CABIN]) });
    const user = renderHeader(api);
    const button = await screen.findByRole('button', { name: 'Budget: Household' });
    await user.click(button);
    // The menu's code loads when it first opens.
    const budgets = await screen.findByRole('list', { name: 'Your budgets' });
    expect(within(budgets).getByRole('button', { name: 'Household (Owner)' })).toHaveAttribute('aria-current', 'true');
    expect(screen.getByRole('button', { name: 'Members' })).toBeVisible();

    await user.click(within(budgets).getByRole('button', { name: 'Cabin (Viewer)' }));
    // The same view, in the other budget: a link to it opens the same one.
    expect(`${window.location.pathname}${window.location.search}`).toBe('/plan?budget=b-cabin');
    expect(await screen.findByRole('button', { name: 'Budget: Cabin' })).toBeVisible();
    expect(screen.getByText('View only')).toBeVisible();

    await user.click(screen.getByRole('button', { name: 'Budget: Cabin' }));
    await user.click(screen.getByRole('button', { name: 'Personal (yours)' }));
    // The personal budget's addresses are what they always were.
    expect(`${window.location.pathname}${window.location.search}`).toBe('/plan');
  });

  it('offers a new budget, with no Members for the personal one', async () => {
    const api = fakeBudgetsApi({ listBudgets: vi.fn(async () => [PERSONAL]) });
    const user = renderHeader(api);
    await user.click(await screen.findByRole('button', { name: 'Budget: Personal' }));
    expect(await screen.findByRole('button', { name: 'New budget' })).toBeVisible();
    expect(screen.queryByRole('button', { name: 'Members' })).toBeNull();
    expect(screen.queryByText('View only')).toBeNull();
  });

  it("turns the member's messages about the budget in view off and on (decision 0099)", async () => {
    window.history.replaceState(null, '', '/?budget=b-house');
    const quiet = { ...HOUSEHOLD, notify: false };
    const api = fakeBudgetsApi({
      listBudgets: vi.fn<FakeBudgetsApi['listBudgets']>().mockResolvedValueOnce([PERSONAL, HOUSEHOLD]).mockResolvedValue([PERSONAL, quiet]),
      setBudgetNotify: vi.fn(async () => [PERSONAL, quiet]),
    });
    const user = renderHeader(api);
    await user.click(await screen.findByRole('button', { name: 'Budget: Household' }));
    const notify = await screen.findByRole('switch', { name: 'Notify me about Household' });
    expect(notify).toBeChecked();
    await user.click(notify);
    expect(api.setBudgetNotify).toHaveBeenCalledWith('b-house', false);
    await waitFor(() => expect(screen.getByRole('switch', { name: 'Notify me about Household' })).not.toBeChecked());
  });

  it("makes a budget: the form's and the server's messages beside the name, then opens it", async () => {
    const api = fakeBudgetsApi({
      listBudgets: vi.fn(async () => [PERSONAL]),
      createBudget: vi
        .fn<FakeBudgetsApi['createBudget']>()
        .mockRejectedValueOnce(
          new ApiCallError('createBudget', 400, 'Some fields need attention.', { name: 'You already have a budget named Household.' }),
        )
        .mockResolvedValueOnce(HOUSEHOLD),
    });
    const user = renderHeader(api);
    await user.click(await screen.findByRole('button', { name: 'Budget: Personal' }));
    await user.click(await screen.findByRole('button', { name: 'New budget' }));
    const dialog = await findOpenDialog('New Budget');
    const name = within(dialog).getByRole('textbox', { name: 'Name' });

    await user.click(within(dialog).getByRole('button', { name: 'Create' }));
    expect(name).toHaveAttribute('aria-invalid', 'true');
    expect(api.createBudget).not.toHaveBeenCalled();

    await user.type(name, 'x'.repeat(51));
    await user.click(within(dialog).getByRole('button', { name: 'Create' }));
    expect(within(dialog).getByText(/50 characters/)).toBeVisible();
    expect(api.createBudget).not.toHaveBeenCalled();

    await user.clear(name);
    await user.type(name, 'Household');
    await user.click(within(dialog).getByRole('button', { name: 'Create' }));
    expect(await within(dialog).findByText('You already have a budget named Household.')).toBeVisible();
    expect(name).toHaveValue('Household');

    await user.click(within(dialog).getByRole('button', { name: 'Create' }));
    await waitForDialogToClose('New Budget');
    expect(api.createBudget).toHaveBeenLastCalledWith('Household');
    await waitFor(() => expect(window.location.search).toBe('?budget=b-house'));
  });
});
