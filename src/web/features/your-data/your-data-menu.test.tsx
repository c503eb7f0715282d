/**
 * "Your data" (issue 15) as a user meets it: the menu's three items, a download, a restore that
 * says what it replaces, and a deletion that waits for the typed word. The network is stubbed at
 * the api client only.
 */
import { render, screen, waitFor, within } from '@testing-library/react';
import { userEvent } from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ApiCallError } from '../../api/api-client.js';
import { ApiClientProvider } from '../../api/api-context.js';
import { YourDataApiProvider } from '../../api/your-data-calls.js';
import { findOpenDialog, waitForDialogToClose } from '../../test-support/dialog-queries.js';
import { fakeApiClient, fakeYourDataApi, type FakeYourDataApi } from '../../test-support/fake-api-client.js';
import { YourDataMenu } from './your-data-menu.js';

const EXPORT = {
  format: 'leftover-export',
  version: 1,
  exportedAt: '2031-02-03T04:05:06.000Z',
  deposits: [{ id: 'd1' }],
  expenses: [{ id: 'e1' }, { id: 'e2' }],
  ledger: { transactions: [{ id: 't1' }, { id: 't2' }, { id: 't3' }] },
};

function renderMenu(api: FakeYourDataApi) {
  const onDataReplaced = vi.fn();
  render(
    <ApiClientProvider client={fakeApiClient()}>
      <YourDataApiProvider value={api}>
        <YourDataMenu onDataReplaced={onDataReplaced} />
      </YourDataApiProvider>
    </ApiClientProvider>,
  );
  return { user: userEvent.setup(), onDataReplaced };
}

async function openMenu(user: ReturnType<typeof userEvent.setup>) {
  const button = screen.getByRole('button', { name: 'Your data' });
  expect(button).toHaveAttribute('aria-expanded', 'false');
  await user.click(button);
  expect(button).toHaveAttribute('aria-expanded', 'true');
  return screen.findByRole('button', { name: 'Download my data' });
}

let saved: { readonly name: string; readonly blob: Blob }[] = [];
beforeEach(() => {
  saved = [];
  vi.spyOn(URL, 'createObjectURL').mockImplementation((blob) => {
    saved.push({ name: '', blob: blob as Blob });
    return 'blob:test';
  });
  vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function click(this: HTMLAnchorElement) {
    const last = saved.at(-1);
    if (last) saved[saved.length - 1] = { ...last, name: this.download };
  });
});
afterEach(() => vi.restoreAllMocks());

describe('Your data', () => {
  it('offers the three actions, and closes on Escape', async () => {
    const { user } = renderMenu(fakeYourDataApi());
    await openMenu(user);
    for (const name of ['Download my data', 'Restore from file', 'Delete all my data'])
      expect(screen.getByRole('button', { name })).toBeVisible();
    await user.keyboard('{Escape}');
    expect(screen.queryByRole('button', { name: 'Download my data' })).toBeNull();
  });

  it('downloads everything as one JSON file', async () => {
    const api = fakeYourDataApi({ exportYourData: vi.fn(() => Promise.resolve(new Blob([JSON.stringify(EXPORT)]))) });
    const { user } = renderMenu(api);
    await user.click(await openMenu(user));
    await waitFor(() => expect(saved).toHaveLength(1));
    expect(saved[0]?.name).toMatch(/^leftover-data-\d{4}-\d{2}-\d{2}\.json$/);
    expect(JSON.parse(await (saved[0] as { blob: Blob }).blob.text())).toEqual(EXPORT);
  });

  it('says why a download failed, in the menu', async () => {
    const api = fakeYourDataApi({ exportYourData: vi.fn(() => Promise.reject(new ApiCallError('exportYourData', 0, 'Offline.'))) });
    const { user } = renderMenu(api);
    await user.click(await openMenu(user));
    expect(await screen.findByRole('alert')).toHaveTextContent('Failed to download your data! Offline.');
  });

  it('restores from a file only after saying what it replaces, then reloads the dashboard', async () => {
    const api = fakeYourDataApi({ restoreYourData: vi.fn(() => Promise.resolve({ deposits: 1, expenses: 2, transactions: 3 })) });
    const { user, onDataReplaced } = renderMenu(api);
    await openMenu(user);
    await user.click(screen.getByRole('button', { name: 'Restore from file' }));
    const dialog = await findOpenDialog('Restore From File');
    const replace = within(dialog).getByRole('button', { name: 'Replace my data' });
    expect(replace).toBeDisabled();

    await user.upload(
      within(dialog).getByLabelText('Backup file'),
      new File([JSON.stringify(EXPORT)], 'backup.json', { type: 'application/json' }),
    );
    expect(
      await within(dialog).findByText(
        "Restoring replaces all your data (your deposits, your expenses and your ledger) with this file's: 1 deposit, 2 expenses and a ledger of 3 transactions, exported on Mon, Feb 3, 2031. This cannot be undone.",
      ),
    ).toBeVisible();
    expect(api.restoreYourData).not.toHaveBeenCalled();
    await user.click(replace);
    await waitForDialogToClose('Restore From File');
    expect(api.restoreYourData).toHaveBeenCalledWith(EXPORT);
    expect(onDataReplaced).toHaveBeenCalledTimes(1);
  });

  it.each([
    [
      'one account',
      [{ name: 'Checking', ledger: { transactions: [{ id: 't1' }, { id: 't2' }, { id: 't3' }, { id: 't4' }] } }],
      'a ledger of 4 transactions',
    ],
    [
      'three accounts, one without a ledger',
      [
        { name: 'Checking', ledger: { transactions: [{ id: 't1' }, { id: 't2' }] } },
        { name: 'Savings', ledger: { transactions: [{ id: 't3' }] } },
        { name: 'Cash', ledger: null },
      ],
      '3 accounts whose ledgers hold 3 transactions',
    ],
    ['accounts without ledgers', [{ name: 'Checking', ledger: null }], 'no ledger'],
  ])('says what a version 2 file holds: %s', async (_case, accounts, holds) => {
    const { user } = renderMenu(fakeYourDataApi());
    await openMenu(user);
    await user.click(screen.getByRole('button', { name: 'Restore from file' }));
    const dialog = await findOpenDialog('Restore From File');
    const { format, exportedAt, deposits, expenses } = EXPORT;
    const file = { format, version: 2, exportedAt, accounts, deposits, expenses };
    await user.upload(
      within(dialog).getByLabelText('Backup file'),
      new File([JSON.stringify(file)], 'backup.json', { type: 'application/json' }),
    );
    expect(
      await within(dialog).findByText(
        `Restoring replaces all your data (your deposits, your expenses and your ledger) with this file's: 1 deposit, 2 expenses and ${holds}, exported on Mon, Feb 3, 2031. This cannot be undone.`,
      ),
    ).toBeVisible();
  });

  it('refuses a file that is not an export without a call, and shows a refused restore in the dialog', async () => {
    const api = fakeYourDataApi({
      restoreYourData: vi.fn(() =>
        Promise.reject(
          new ApiCallError('restoreYourData', 400, 'Invalid input.', { 'ledger.transactions.2.date': 'Date must be within the ledger.' }),
        ),
      ),
    });
    const { user, onDataReplaced } = renderMenu(api);
    await openMenu(user);
    await user.click(screen.getByRole('button', { name: 'Restore from file' }));
    const dialog = await findOpenDialog('Restore From File');
    const field = within(dialog).getByLabelText('Backup file');

    await user.upload(field, new File(['not json'], 'notes.json', { type: 'application/json' }));
    expect(await within(dialog).findByText('This file is not a Leftover export. "Download my data" makes one.')).toBeVisible();
    expect(within(dialog).getByRole('button', { name: 'Replace my data' })).toBeDisabled();

    await user.upload(field, new File([JSON.stringify(EXPORT)], 'backup.json', { type: 'application/json' }));
    await user.click(await within(dialog).findByRole('button', { name: 'Replace my data' }));
    expect(
      await within(dialog).findByText('Failed to restore your data! ledger.transactions.2.date: Date must be within the ledger.'),
    ).toBeVisible();
    expect(onDataReplaced).not.toHaveBeenCalled();
  });

  it('deletes everything only once DELETE is typed', async () => {
    const api = fakeYourDataApi({ deleteYourData: vi.fn(() => Promise.resolve({ deposits: 1, expenses: 2, transactions: 3 })) });
    const { user, onDataReplaced } = renderMenu(api);
    await openMenu(user);
    await user.click(screen.getByRole('button', { name: 'Delete all my data' }));
    const dialog = await findOpenDialog('Delete All My Data');
    const confirm = within(dialog).getByRole('button', { name: 'Delete all my data' });
    await user.type(within(dialog).getByLabelText('Type DELETE to confirm'), 'delete');
    expect(confirm).toBeDisabled();
    await user.clear(within(dialog).getByLabelText('Type DELETE to confirm'));
    await user.type(within(dialog).getByLabelText('Type DELETE to confirm'), 'DELETE');
    await user.click(confirm);
    await waitForDialogToClose('Delete All My Data');
    expect(api.deleteYourData).toHaveBeenCalledTimes(1);
    expect(onDataReplaced).toHaveBeenCalledTimes(1);
  });
});
