/**
 * The invitation's page (issue 38, point 3) and the page of a member removed (point 4), as the
 * invited person meets them: the budget's name, who invited and the role before anything else,
 * "Join" and "No thanks", the token gone from the address once read, the server's words for a used,
 * expired, revoked or own invitation; and "You are no longer a member of Household." with the way
 * back to their own budget. The network is stubbed at the budgets' calls only.
 */
import { render, screen, waitFor } from '@testing-library/react';
import { userEvent } from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Budget, InvitationView } from '../../../contract/budgets.js';
import { ApiCallError } from '../../api/api-client.js';
import { ApiClientProvider } from '../../api/api-context.js';
import { BudgetsApiProvider } from '../../api/budgets-api-context.js';
import { fakeApiClient, fakeBudgetsApi, type FakeBudgetsApi } from '../../test-support/fake-api-client.js';
import { BudgetGone } from './budget-gone.js';
import { JoinPage } from './join-page.js';

const TOKEN = 'Abcdefghijklmnopqrstuvwxyz012345';
const INVITATION: InvitationView = {
  budget: { name: 'Household' },
  invitedBy: 'Alex',
  role: 'EDITOR',
  expiresAt: '2026-12-06T08:00:00.000Z',
};
const HOUSEHOLD: Budget = { id: 'b-house', name: 'Household', role: 'EDITOR', personal: false, notify: true };

function openJoin(api: FakeBudgetsApi, address = `/join#${TOKEN}`) {
  window.history.replaceState(null, '', address);
  const onJoined = vi.fn();
  render(
    <ApiClientProvider client={fakeApiClient()}>
      <BudgetsApiProvider value={api}>
        <JoinPage onJoined={onJoined} />
      </BudgetsApiProvider>
    </ApiClientProvider>,
  );
  return { user: userEvent.setup(), onJoined };
}

afterEach(() => window.history.replaceState(null, '', '/'));

describe('/join', () => {
  it("shows the budget's name, who invited and the role, takes the token out of the address, and joins", async () => {
    const api = fakeBudgetsApi({ viewInvitation: vi.fn(async () => INVITATION), acceptInvitation: vi.fn(async () => HOUSEHOLD) });
    const { user, onJoined } = openJoin(api);
    expect(await screen.findByText('Alex invites you to join', { exact: false })).toHaveTextContent(
      'Alex invites you to join Household as editor.',
    );
    expect(screen.getByText('Invited by').nextElementSibling).toHaveTextContent('Alex');
    expect(screen.getByText('Role').nextElementSibling).toHaveTextContent('Editor');
    expect(api.viewInvitation).toHaveBeenCalledWith(TOKEN);
    // Out of the address and the history: only a body ever carries it.
    expect(`${window.location.pathname}${window.location.hash}`).toBe('/join');

    await user.click(screen.getByRole('button', { name: 'Join' }));
    expect(api.acceptInvitation).toHaveBeenCalledWith(TOKEN);
    expect(onJoined).toHaveBeenCalledWith(HOUSEHOLD);
    expect(api.declineInvitation).not.toHaveBeenCalled();
  });

  it('declines with No thanks', async () => {
    const api = fakeBudgetsApi({ viewInvitation: vi.fn(async () => INVITATION), declineInvitation: vi.fn(async () => undefined) });
    const { user, onJoined } = openJoin(api);
    await user.click(await screen.findByRole('button', { name: 'No thanks' }));
    expect(await screen.findByRole('status')).toHaveTextContent('You declined the invitation to Household.');
    expect(api.declineInvitation).toHaveBeenCalledWith(TOKEN);
    expect(onJoined).not.toHaveBeenCalled();
    expect(screen.queryByRole('button', { name: 'Join' })).toBeNull();
  });

  it.each([
    [410, 'This invitation was already used.'],
    [410, 'This invitation has expired.'],
    [410, 'This invitation was revoked.'],
    [404, 'No such invitation.'],
  ])('says what the server says of an invitation it will not show (%i %s)', async (status, message) => {
    const api = fakeBudgetsApi({ viewInvitation: vi.fn(async () => Promise.reject(new ApiCallError('viewInvitation', status, message))) });
    openJoin(api);
    expect(await screen.findByRole('alert')).toHaveTextContent(message);
    expect(screen.queryByRole('button', { name: 'Join' })).toBeNull();
    expect(screen.getByRole('link', { name: 'Go to your own budget' })).toHaveAttribute('href', '/');
  });

  it("says what the server says when the inviter opens their own invitation's Join", async () => {
    const own = 'You cannot accept your own invitation.';
    const api = fakeBudgetsApi({
      viewInvitation: vi.fn(async () => INVITATION),
      acceptInvitation: vi.fn(async () => Promise.reject(new ApiCallError('acceptInvitation', 409, own))),
    });
    const { user, onJoined } = openJoin(api);
    await user.click(await screen.findByRole('button', { name: 'Join' }));
    expect(await screen.findByRole('alert')).toHaveTextContent(own);
    expect(onJoined).not.toHaveBeenCalled();
  });

  it('says so when the address holds no token, and asks nothing', async () => {
    const api = fakeBudgetsApi();
    openJoin(api, '/join');
    expect(await screen.findByRole('alert')).toHaveTextContent('This address holds no invitation.');
    expect(api.viewInvitation).not.toHaveBeenCalled();
  });
});

describe('a member removed', () => {
  it('is told by name, and offered their own budget', async () => {
    const onBack = vi.fn();
    render(<BudgetGone name="Household" onBack={onBack} />);
    const message = screen.getByText('You are no longer a member of Household.');
    await waitFor(() => expect(message).toHaveFocus());
    await userEvent.setup().click(screen.getByRole('button', { name: 'Go to your own budget' }));
    expect(onBack).toHaveBeenCalledOnce();
  });
});
