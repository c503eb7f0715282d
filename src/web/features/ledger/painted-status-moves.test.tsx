/**
 * Issue 24 item 3: Pay and Clear paint at once. The section sits in a shell that, like the real
 * one, draws whatever ledger the section hands it; the row's badge and both balances must show the
 * move before the call is answered, a refusal must put back exactly the ledger that was there, and
 * the answer must end on the same numbers. The last tests use the real api client over a stubbed
 * fetch, so the answer's changes (`?answer=changes`, decision 0030) are applied to the held ledger
 * as the page does it, with no reload.
 */
import { act, render, screen, waitFor, within } from '@testing-library/react';
import { userEvent } from '@testing-library/user-event';
import { useMemo, useState } from 'react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { LedgerInfoView } from '../../../contract/codecs.js';
import { ledgerEtag, type LedgerTransaction } from '../../../contract/ledger.js';
import { type ApiClient, ApiCallError, createApiClient } from '../../api/api-client.js';
import { ApiClientProvider } from '../../api/api-context.js';
import { ledgerVersion, noteLedgerVersion } from '../../api/ledger-version.js';
import { ledgerForecast } from '../../forecast/ledger-forecast.js';
import { fakeApiClient, type FakeApiClient } from '../../test-support/fake-api-client.js';
import { LedgerSection } from './ledger-section.js';
import { ledgerInfo, NO_SCHEDULES, NoImportStatementDialog, PAYCHECK, RENT, setWindowWidth, transaction } from './ledger-test-support.js';

const JSDOM_WIDTH = window.innerWidth;

beforeEach(() => setWindowWidth(1280));
afterEach(() => setWindowWidth(JSDOM_WIDTH));

/** With the support's paycheck and unpaid rent (opening $2,000): an $80 phone bill, unpaid too. */
const PHONE: LedgerTransaction = { ...RENT, id: 'phone', date: '2026-03-20', name: 'Phone', amount: 80, balance: 2220 };

/** The ledger with these statuses, its balances as the server would answer them. */
function ledgerWith(statuses: Partial<Record<string, LedgerTransaction['status']>> = {}): LedgerInfoView {
  const rows = [PAYCHECK, RENT, PHONE].map((row) => transaction({ ...row, status: statuses[row.id] ?? row.status }));
  const signed = (row: LedgerTransaction) => (row.type === 'C' ? row.amount : -row.amount);
  const sum = (kept: (row: LedgerTransaction) => boolean) => 2000 + rows.filter(kept).reduce((total, row) => total + signed(row), 0);
  return ledgerInfo(rows, {
    openingBalance: 2000,
    currentBalance: sum((row) => row.status === 'CLEARED'),
    pendingBalance: sum((row) => row.status !== 'PENDING'),
  });
}

/** The section in a shell that draws every ledger it is handed, and computes the forecast from it, as the app's views do. */
function renderInShell(initial: LedgerInfoView, api: ApiClient | FakeApiClient) {
  const onError = vi.fn<(error: unknown) => void>();
  const handed: LedgerInfoView[] = [];
  function Shell() {
    const [info, setInfo] = useState(initial);
    const forecast = useMemo(() => (info.ledger === null ? null : ledgerForecast(info.ledger, null)), [info]);
    return (
      <ApiClientProvider client={api}>
        <LedgerSection
          info={info}
          onChange={(next) => {
            handed.push(next);
            setInfo(next);
          }}
          onError={onError}
          onRefresh={() => Promise.resolve()}
          scheduleNames={NO_SCHEDULES}
          forecast={forecast}
          importStatementDialog={NoImportStatementDialog}
        />
      </ApiClientProvider>
    );
  }
  render(<Shell />);
  return { onError, handed };
}

function rowOf(name: string): HTMLElement {
  const row = screen.getByRole('cell', { name: new RegExp(`^${name}`) }).closest('tr');
  if (!row) throw new Error(`no row for ${name}`);
  return row;
}

/** What a person reads: each row's badge and running balance, and the header's two balances. */
function whatShows() {
  const cells = (name: string) => within(rowOf(name)).getAllByRole('cell');
  return {
    rows: ['Acme Paycheck', 'Rent', 'Phone'].map((name) => `${name}: ${cells(name)[1]?.textContent} ${cells(name)[4]?.textContent}`),
    current: screen.getByRole('definition', { name: 'Current Balance' }).textContent,
    pending: screen.getByRole('definition', { name: 'Pending Balance' }).textContent,
  };
}

/** A call the test answers when it chooses. */
function heldBack<T>() {
  let answer: (value: T) => void = () => undefined;
  let refuse: (error: unknown) => void = () => undefined;
  const promise = new Promise<T>((resolve, reject) => {
    answer = resolve;
    refuse = reject;
  });
  return { promise, answer, refuse };
}

describe('Pay and Clear paint at once (stubbed api client)', () => {
  it('Pay shows the badge and both balances before the call is answered, and the answer ends on the same numbers', async () => {
    const user = userEvent.setup();
    const api = fakeApiClient();
    const call = heldBack<LedgerInfoView>();
    api.updateTransaction.mockReturnValue(call.promise);
    const before = ledgerWith();
    const { handed, onError } = renderInShell(before, api);
    expect(whatShows()).toEqual({
      rows: ['Acme Paycheck: Acme Paycheck ✓✓Cleared $3,500.00', 'Rent: Rent ○Unpaid $2,300.00', 'Phone: Phone ○Unpaid $2,220.00'],
      current: '$3,500.00',
      pending: '$3,500.00',
    });

    await user.click(screen.getByRole('button', { name: 'Pay Rent' }));

    // Not answered yet: the row and the Pending Balance already show the Pay; nothing else moved.
    const painted = {
      rows: ['Acme Paycheck: Acme Paycheck ✓✓Cleared $3,500.00', 'Rent: Rent ✓Paid $2,300.00', 'Phone: Phone ○Unpaid $2,220.00'],
      current: '$3,500.00',
      pending: '$2,300.00',
    };
    expect(whatShows()).toEqual(painted);
    expect(screen.getByRole('button', { name: 'Pay Rent' })).toBeDisabled();
    expect(screen.getByRole('button', { name: 'Clear Rent' })).toHaveFocus();
    // The write's changes apply to the ledger as the server last gave it, not to the painted one.
    const heldLedger = api.updateTransaction.mock.calls[0]?.[1];
    expect(heldLedger?.()).toBe(before.ledger);

    const answer = ledgerWith({ rent: 'PAID' });
    await act(async () => call.answer(answer));

    expect(handed.at(-1)).toBe(answer);
    expect(whatShows()).toEqual(painted);
    expect(heldLedger?.()).toBe(answer.ledger);
    expect(onError).not.toHaveBeenCalled();
  });

  it('Clear of an unpaid row moves both balances at once', async () => {
    const user = userEvent.setup();
    const api = fakeApiClient();
    api.updateTransaction.mockReturnValue(heldBack<LedgerInfoView>().promise);
    renderInShell(ledgerWith(), api);

    await user.click(screen.getByRole('button', { name: 'Clear Phone' }));

    expect(whatShows()).toEqual({
      rows: ['Acme Paycheck: Acme Paycheck ✓✓Cleared $3,500.00', 'Rent: Rent ○Unpaid $2,300.00', 'Phone: Phone ✓✓Cleared $2,220.00'],
      current: '$3,420.00',
      pending: '$3,420.00',
    });
    expect(api.updateTransaction.mock.calls.map(([update]) => [update.id, update.status])).toEqual([['phone', 'CLEARED']]);
  });

  it.each([
    ['a 409 with the server’s reason', new ApiCallError('updateTransactionPrimary', 409, 'A CLEARED transaction cannot become PAID.')],
    ['a 412: the ledger changed elsewhere', new ApiCallError('updateTransactionPrimary', 412, 'The ledger changed since you loaded it.')],
    [
      'no network',
      new ApiCallError('updateTransactionPrimary', 0, 'The server could not be reached. Check your connection and try again.'),
    ],
  ])('a refusal (%s) puts back exactly the ledger that was there, and says why', async (_, failure) => {
    const user = userEvent.setup();
    const api = fakeApiClient();
    const call = heldBack<LedgerInfoView>();
    api.updateTransaction.mockReturnValue(call.promise);
    const before = ledgerWith();
    const { handed, onError } = renderInShell(before, api);
    const unpaid = whatShows();

    await user.click(screen.getByRole('button', { name: 'Pay Rent' }));
    expect(whatShows().pending).toBe('$2,300.00');

    await act(async () => call.refuse(failure));

    expect(onError).toHaveBeenCalledExactlyOnceWith(failure);
    expect(handed.at(-1)).toBe(before);
    expect(whatShows()).toEqual(unpaid);
    expect(screen.getByRole('button', { name: 'Pay Rent' })).toBeEnabled();
  });

  it('a second tap on the same row while its move is on its way sends nothing more', async () => {
    const user = userEvent.setup();
    const api = fakeApiClient();
    const call = heldBack<LedgerInfoView>();
    api.updateTransaction.mockReturnValue(call.promise);
    renderInShell(ledgerWith(), api);

    await user.click(screen.getByRole('button', { name: 'Pay Rent' }));
    // Painted paid, the row offers Clear: that tap waits for nothing and sends nothing.
    await user.click(screen.getByRole('button', { name: 'Clear Rent' }));
    expect(whatShows().rows[1]).toBe('Rent: Rent ✓Paid $2,300.00');
    await act(async () => call.answer(ledgerWith({ rent: 'PAID' })));

    expect(api.updateTransaction).toHaveBeenCalledTimes(1);
  });
});

/**
 * A server for the real api client, holding the three rows: every update is decided when it
 * arrives (versions v1, v2, ... in that order) and answered with its changes when the test lets
 * the answer go.
 */
function fakeServer() {
  const statuses: Record<string, LedgerTransaction['status']> = { pay: 'CLEARED', rent: 'PENDING', phone: 'PENDING' };
  let version = 1;
  const answers: { readonly release: () => void; readonly id: string }[] = [];
  const reloads = vi.fn();
  const json = (status: number, body: unknown) =>
    new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
  const fetchImpl = vi.fn(async (input: RequestInfo | URL, init?: RequestInit): Promise<Response> => {
    const url = String(input);
    if (url.startsWith('/api/ledger/retrieve-ledger')) {
      reloads();
      throw new Error('the page reloaded the whole ledger');
    }
    if (!url.startsWith('/api/ledger/update-transaction?answer=changes')) throw new Error(`unexpected call ${url}`);
    const update = JSON.parse(String(init?.body)) as { id: string; status: LedgerTransaction['status'] };
    let response: Response;
    if (statuses[update.id] === 'CLEARED' && update.status === 'PAID') {
      response = json(409, { error: { code: 'conflict', message: 'A CLEARED transaction cannot become PAID.' } });
    } else {
      statuses[update.id] = update.status;
      const basedOn = `v${version}`;
      version += 1;
      const after = ledgerWith(statuses).ledger;
      const wire = [PAYCHECK, RENT, PHONE].map((row) => ({ ...row, status: statuses[row.id] ?? row.status }));
      const position = wire.findIndex((row) => row.id === update.id);
      response = json(200, {
        changes: {
          basedOn,
          version: `v${version}`,
          startDate: '2026-03-01',
          endDate: '2026-12-31',
          openingBalance: 2000,
          currentBalance: (after?.currentBalance ?? 0) / 100,
          pendingBalance: (after?.pendingBalance ?? 0) / 100,
          count: 3,
          rows: [{ ...wire[position], position }],
          removed: [],
        },
      });
    }
    const sent = heldBack<Response>();
    answers.push({ id: update.id, release: () => sent.answer(response) });
    return sent.promise;
  });
  return { fetchImpl, answers, reloads, statuses };
}

/** The held ledger at version v1, as the page holds it after loading. */
function loadedAtV1(): LedgerInfoView {
  const info = ledgerWith();
  if (info.ledger) noteLedgerVersion(info.ledger, ledgerEtag('v1'));
  return info;
}

/** The real api client over the fake server, with the held ledger each write was given kept for the test to read. */
function realClient(server: ReturnType<typeof fakeServer>) {
  const client = createApiClient({ getAccessToken: () => 'token', onUnauthorized: vi.fn(), fetchImpl: server.fetchImpl });
  const updateTransaction = vi.fn(client.updateTransaction);
  const heldVersion = () => {
    const held = updateTransaction.mock.calls.at(-1)?.[1]?.();
    return held ? ledgerVersion(held) : undefined;
  };
  return { api: { ...client, updateTransaction }, heldVersion };
}

describe('Pay and Clear paint at once (real api client, changes answers)', () => {
  it('two rows paid quickly both paint at once, and each answer applies to the held ledger with no reload', async () => {
    const user = userEvent.setup();
    const server = fakeServer();
    const { api, heldVersion } = realClient(server);
    const { handed, onError } = renderInShell(loadedAtV1(), api);

    await user.click(screen.getByRole('button', { name: 'Pay Rent' }));
    await user.click(screen.getByRole('button', { name: 'Pay Phone' }));

    const bothPaid = {
      rows: ['Acme Paycheck: Acme Paycheck ✓✓Cleared $3,500.00', 'Rent: Rent ✓Paid $2,300.00', 'Phone: Phone ✓Paid $2,220.00'],
      current: '$3,500.00',
      pending: '$2,220.00',
    };
    expect(whatShows()).toEqual(bothPaid);
    await waitFor(() => expect(server.answers).toHaveLength(2));
    // Both went out against the ledger as loaded, not a painted one.
    expect(heldVersion()).toBe('v1');

    // The first answer's changes apply to v1; the second row stays painted over the result.
    await act(async () => server.answers[0]?.release());
    await waitFor(() => expect(heldVersion()).toBe('v2'));
    expect(whatShows()).toEqual(bothPaid);

    await act(async () => server.answers[1]?.release());
    await waitFor(() => expect(heldVersion()).toBe('v3'));

    // The server's ledger (v3) is what the section hands over last, with the numbers painted at the tap.
    const last = handed.at(-1)?.ledger;
    expect(last && ledgerVersion(last)).toBe('v3');
    expect(last?.pendingBalance).toBe(222_000);
    expect(whatShows()).toEqual(bothPaid);
    expect(server.reloads).not.toHaveBeenCalled();
    expect(onError).not.toHaveBeenCalled();
  });

  it('a 409 from the server puts the row back exactly, with the server’s words, and nothing is reloaded', async () => {
    const user = userEvent.setup();
    const server = fakeServer();
    // Another tab cleared the phone bill: this page still shows it unpaid.
    server.statuses.phone = 'CLEARED';
    const { api } = realClient(server);
    const before = loadedAtV1();
    const { handed, onError } = renderInShell(before, api);
    const unpaid = whatShows();

    await user.click(screen.getByRole('button', { name: 'Pay Phone' }));
    expect(whatShows().rows[2]).toBe('Phone: Phone ✓Paid $2,220.00');
    await waitFor(() => expect(server.answers).toHaveLength(1));
    await act(async () => server.answers[0]?.release());

    await waitFor(() => expect(onError).toHaveBeenCalledTimes(1));
    expect(onError.mock.calls[0]?.[0]).toMatchObject({
      message: 'Failed to update transaction!',
      status: 409,
      detail: 'A CLEARED transaction cannot become PAID.',
    });
    expect(handed.at(-1)).toBe(before);
    expect(whatShows()).toEqual(unpaid);
    expect(server.reloads).not.toHaveBeenCalled();
  });
});
