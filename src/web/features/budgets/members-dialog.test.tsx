/**
 * "Members" (issue 38) as an owner and as an editor meet it: names and roles with "(you)", a role
 * changed, a member removed, an invitation made and its link copied (or selected where the
 * clipboard is refused) or mailed where the server can, pending invitations revoked, leaving, and
 * the server's refusals said in the dialog. The network is stubbed at the budgets' calls only.
 */
import { render, waitFor, within } from '@testing-library/react';
import { userEvent } from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Budget, Invitation, Member } from '../../../contract/budgets.js';
import { ApiCallError } from '../../api/api-client.js';
import { ApiClientProvider } from '../../api/api-context.js';
import { BudgetsApiProvider } from '../../api/budgets-api-context.js';
import { findOpenDialog } from '../../test-support/dialog-queries.js';
import { fakeApiClient, fakeBudgetsApi, type FakeBudgetsApi } from '../../test-support/fake-api-client.js';
import { MembersDialog } from './members-dialog.js';

const HOUSEHOLD: Budget = { id: 'b-house', name: 'Household', role: 'OWNER', personal: false, notify: true };
const ALEX: Member = { id: 'm-alex', name: 'Alex', role: 'OWNER', you: true };
const SAM: Member = { id: 'm-sam', name: 'Sam', role: 'EDITOR', you: false };
const PENDING: Invitation = {
  id: 'i-1',
  role: 'VIEWER',
  invitedBy: 'Alex',
  createdAt: '2026-11-29T08:00:00.000Z',
  expiresAt: '2026-12-06T08:00:00.000Z',
};
const LINK = 'https://leftover.example/join#AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA';

/** user-event puts a clipboard of its own on the page: the test's goes over it. */
function putClipboard(writeText: Clipboard['writeText']) {
  Object.defineProperty(navigator, 'clipboard', { value: { writeText }, configurable: true });
}

function renderDialog(api: FakeBudgetsApi, budget: Budget = HOUSEHOLD, writeText?: Clipboard['writeText']) {
  const onLeft = vi.fn();
  render(
    <ApiClientProvider client={fakeApiClient()}>
      <BudgetsApiProvider value={api}>
        <MembersDialog show budget={budget} onLeft={onLeft} onClose={vi.fn()} />
      </BudgetsApiProvider>
    </ApiClientProvider>,
  );
  const user = userEvent.setup();
  if (writeText) putClipboard(writeText);
  return { user, onLeft };
}

afterEach(() => vi.restoreAllMocks());

describe('Members, as an owner', () => {
  it('lists members by name and role, changes a role, removes a member, and says a refusal', async () => {
    const api = fakeBudgetsApi({
      listMembers: vi.fn(async () => [ALEX, SAM]),
      listInvitations: vi.fn(async () => []),
      changeRole: vi
        .fn<FakeBudgetsApi['changeRole']>()
        .mockResolvedValueOnce([ALEX, { ...SAM, role: 'VIEWER' }])
        .mockRejectedValueOnce(new ApiCallError('updateMember', 409, 'The last owner of a budget cannot be demoted.')),
      removeMember: vi.fn(async () => [ALEX]),
    });
    const { user } = renderDialog(api);
    const dialog = await findOpenDialog('Members');
    expect(await within(dialog).findByRole('cell', { name: 'Alex (you)' })).toBeVisible();
    expect(within(dialog).getByRole('cell', { name: 'Sam' })).toBeVisible();

    await user.selectOptions(within(dialog).getByRole('combobox', { name: 'Role of Sam' }), 'VIEWER');
    expect(api.changeRole).toHaveBeenCalledWith('b-house', 'm-sam', 'VIEWER');
    await waitFor(() => expect(within(dialog).getByRole('combobox', { name: 'Role of Sam' })).toHaveValue('VIEWER'));

    await user.selectOptions(within(dialog).getByRole('combobox', { name: 'Role of Alex' }), 'EDITOR');
    expect(await within(dialog).findByRole('alert')).toHaveTextContent(
      "Failed to change the member's role! The last owner of a budget cannot be demoted.",
    );
    expect(within(dialog).getByRole('combobox', { name: 'Role of Alex' })).toHaveValue('OWNER');
    // The last owner is offered no Leave: the server would refuse it.
    expect(within(dialog).queryByRole('button', { name: 'Leave Household' })).toBeNull();

    await user.click(within(dialog).getByRole('button', { name: 'Remove Sam' }));
    await waitFor(() => expect(within(dialog).queryByRole('cell', { name: 'Sam' })).toBeNull());
    expect(api.removeMember).toHaveBeenCalledWith('b-house', 'm-sam');
  });

  it('makes an invitation for a role, copies its link, and revokes a pending one', async () => {
    const writeText = vi.fn(async () => undefined);
    const made: Invitation = { ...PENDING, id: 'i-2', role: 'EDITOR' };
    const api = fakeBudgetsApi({
      listMembers: vi.fn(async () => [ALEX]),
      listInvitations: vi.fn(async () => [PENDING]),
      createInvitation: vi.fn(async () => ({ invitation: made, token: 'A'.repeat(32), link: LINK, emailOffered: false })),
      revokeInvitation: vi.fn(async () => [made]),
    });
    const { user } = renderDialog(api, HOUSEHOLD, writeText);
    const dialog = await findOpenDialog('Members');
    expect(await within(dialog).findByText('Viewer, invited by Alex, until Sun, Dec 6, 2026')).toBeVisible();

    expect(within(dialog).getByRole('combobox', { name: 'Role' })).toHaveValue('EDITOR');
    await user.click(within(dialog).getByRole('button', { name: 'Create invitation' }));
    const link = await within(dialog).findByRole('textbox', { name: 'Invitation link' });
    expect(link).toHaveValue(LINK);
    expect(link).toHaveAttribute('readonly');
    expect(api.createInvitation).toHaveBeenCalledWith('b-house', 'EDITOR');
    await user.click(within(dialog).getByRole('button', { name: 'Copy link' }));
    expect(writeText).toHaveBeenCalledWith(LINK);
    expect(within(dialog).getByRole('status')).toHaveTextContent('Copied the link.');
    // This server cannot mail: the link is only to copy.
    expect(within(dialog).queryByRole('textbox', { name: 'Send the link to' })).toBeNull();

    await user.click(
      within(dialog).getByRole('button', { name: 'Revoke the invitation: Viewer, invited by Alex, until Sun, Dec 6, 2026' }),
    );
    expect(api.revokeInvitation).toHaveBeenCalledWith('b-house', 'i-1');
    await waitFor(() => expect(within(dialog).queryByText(/^Viewer, invited by Alex/)).toBeNull());
    expect(within(dialog).getByText('Editor, invited by Alex, until Sun, Dec 6, 2026')).toBeVisible();
  });

  it('selects the link for the user to copy when the clipboard is refused', async () => {
    const api = fakeBudgetsApi({
      listMembers: vi.fn(async () => [ALEX]),
      listInvitations: vi.fn(async () => []),
      createInvitation: vi.fn(async () => ({ invitation: PENDING, token: 'A'.repeat(32), link: LINK, emailOffered: false })),
    });
    const refused = vi.fn(async () => Promise.reject(new DOMException('Denied', 'NotAllowedError')));
    const { user } = renderDialog(api, HOUSEHOLD, refused);
    const dialog = await findOpenDialog('Members');
    await user.click(await within(dialog).findByRole('button', { name: 'Create invitation' }));
    await user.click(await within(dialog).findByRole('button', { name: 'Copy link' }));
    const link = within(dialog).getByRole('textbox', { name: 'Invitation link' });
    await waitFor(() => expect(link).toHaveFocus());
    expect(within(dialog).getByRole('status')).toHaveTextContent('The link is selected: copy it with Ctrl+C');
  });
});

describe('Members, sending an invitation by email', () => {
  const QUIET = 'This address asked not to get mail from Leftover. Use another one.';
  const LIMIT =
    'This address was sent mail from Leftover lately: an address gets at most one an hour and 3 a day. Try again in 45 minutes.';

  it('checks the address, sends the link with its token, and says where it went or why not', async () => {
    const made: Invitation = { ...PENDING, id: 'i-2', role: 'EDITOR' };
    const token = 'A'.repeat(32);
    const api = fakeBudgetsApi({
      listMembers: vi.fn(async () => [ALEX]),
      listInvitations: vi.fn(async () => []),
      createInvitation: vi.fn(async () => ({ invitation: made, token, link: LINK, emailOffered: true })),
      sendInvitation: vi
        .fn<FakeBudgetsApi['sendInvitation']>()
        .mockRejectedValueOnce(new ApiCallError('sendInvitation', 400, QUIET, { email: QUIET }))
        .mockRejectedValueOnce(new ApiCallError('sendInvitation', 429, LIMIT))
        .mockImplementationOnce(async (_budget, _invitation, request) => request.email),
    });
    const { user } = renderDialog(api);
    const dialog = await findOpenDialog('Members');
    await user.click(await within(dialog).findByRole('button', { name: 'Create invitation' }));
    const address = await within(dialog).findByRole('textbox', { name: 'Send the link to' });

    // Checked with the contract before anything is sent.
    await user.type(address, 'not an address');
    await user.click(within(dialog).getByRole('button', { name: 'Send' }));
    expect(await within(dialog).findByText('Email must be an email address, like sam@example.com.')).toBeVisible();
    expect(address).toHaveAttribute('aria-invalid', 'true');
    expect(address).toHaveFocus();
    expect(api.sendInvitation).not.toHaveBeenCalled();

    // The server's refusal of the address, beside it; what was typed stays.
    await user.clear(address);
    await user.type(address, 'quiet@example.com');
    await user.click(within(dialog).getByRole('button', { name: 'Send' }));
    expect(await within(dialog).findByText(QUIET)).toBeVisible();
    expect(address).toHaveValue('quiet@example.com');
    expect(api.sendInvitation).toHaveBeenLastCalledWith('b-house', 'i-2', { email: 'quiet@example.com', token });

    // Any other refusal, under the button, in the catalogue's words and the server's.
    await user.clear(address);
    await user.type(address, 'lee@example.com');
    await user.click(within(dialog).getByRole('button', { name: 'Send' }));
    expect(await within(dialog).findByRole('alert')).toHaveTextContent(`Failed to send the invitation! ${LIMIT}`);

    await user.clear(address);
    await user.type(address, ' sam@example.com ');
    await user.click(within(dialog).getByRole('button', { name: 'Send' }));
    expect(await within(dialog).findByText('Sent to sam@example.com.')).toBeVisible();
    expect(api.sendInvitation).toHaveBeenLastCalledWith('b-house', 'i-2', { email: 'sam@example.com', token });
    expect(address).toHaveValue('');
    expect(within(dialog).queryByRole('alert')).toBeNull();
  });
});

describe('Members, as an editor', () => {
  it('lists members without changing them, and leaves', async () => {
    const api = fakeBudgetsApi({
      listMembers: vi.fn(async () => [
        { ...ALEX, you: false },
        { ...SAM, you: true },
      ]),
      leaveBudget: vi.fn(async () => []),
    });
    const { user, onLeft } = renderDialog(api, { ...HOUSEHOLD, role: 'EDITOR' });
    const dialog = await findOpenDialog('Members');
    expect(await within(dialog).findByRole('cell', { name: 'Sam (you)' })).toBeVisible();
    expect(within(dialog).getByRole('cell', { name: 'Editor' })).toBeVisible();
    expect(within(dialog).queryByRole('combobox')).toBeNull();
    expect(within(dialog).queryByRole('button', { name: /^Remove/ })).toBeNull();
    expect(within(dialog).queryByRole('button', { name: 'Create invitation' })).toBeNull();
    expect(api.listInvitations).not.toHaveBeenCalled();

    await user.click(within(dialog).getByRole('button', { name: 'Leave Household' }));
    expect(api.leaveBudget).toHaveBeenCalledWith('b-house');
    expect(onLeft).toHaveBeenCalledOnce();
  });
});
