/**
 * Two members pay the same row at once (issue 38 point 6, decision 0096): Alex's Pay won, so when
 * Sam's arrives the server finds the row paid already, changes nothing and answers its (empty)
 * changes at the version Alex's Pay made. Sam's page, holding the version before, reads the ledger
 * again (decision 0030) and ends showing the row paid: no error dialog, nothing reported. The real
 * api client over a stubbed fetch, as the page sends it.
 */
import { render, screen, waitFor, within } from '@testing-library/react';
import { userEvent } from '@testing-library/user-event';
import { useState } from 'react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { LedgerInfoView } from '../../../contract/codecs.js';
import { ledgerEtag } from '../../../contract/ledger.js';
import { createApiClient } from '../../api/api-client.js';
import { ApiClientProvider } from '../../api/api-context.js';
import { noteLedgerVersion } from '../../api/ledger-version.js';
import { LedgerSection } from './ledger-section.js';
import { ledgerInfo, NO_SCHEDULES, NoImportStatementDialog, PAYCHECK, RENT, setWindowWidth, transaction } from './ledger-test-support.js';

const JSDOM_WIDTH = window.innerWidth;
beforeEach(() => setWindowWidth(1280));
afterEach(() => setWindowWidth(JSDOM_WIDTH));

const WHOLE = { startDate: '2026-03-01', endDate: '2026-12-31', openingBalance: 2000, currentBalance: 3500 };

function json(status: number, body: unknown, headers: Record<string, string> = {}): Response {
  return new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json', ...headers } });
}

describe('two members paying the same row at once', () => {
  it("ends on Sam's page with the row paid, read again quietly, and no error dialog", async () => {
    const user = userEvent.setup();
    // The server: Alex's Pay made v2 with Rent PAID. Sam's page still holds v1.
    const fetchImpl = vi.fn(async (input: RequestInfo | URL, init?: RequestInit): Promise<Response> => {
      const url = String(input);
      if (url.startsWith('/api/ledger/update-transaction?answer=changes')) {
        expect(JSON.parse(String(init?.body))).toMatchObject({ id: 'rent', status: 'PAID' });
        // The row is PAID already: nothing changes, and the changes are based on the version as it stands.
        return json(200, {
          changes: { ...WHOLE, basedOn: 'v2', version: 'v2', pendingBalance: 2300, count: 2, rows: [], removed: [] },
        });
      }
      if (url.startsWith('/api/ledger/retrieve-ledger')) {
        return json(
          200,
          { ledger: { ...WHOLE, pendingBalance: 2300, transactions: [PAYCHECK, { ...RENT, status: 'PAID' }] } },
          { etag: ledgerEtag('v2') },
        );
      }
      throw new Error(`unexpected call ${url}`);
    });
    const api = createApiClient({ getAccessToken: () => 'token', onUnauthorized: vi.fn(), fetchImpl });
    const held: LedgerInfoView = ledgerInfo([transaction(PAYCHECK), transaction(RENT)], {
      openingBalance: 2000,
      currentBalance: 3500,
      pendingBalance: 3500,
    });
    if (held.ledger) noteLedgerVersion(held.ledger, ledgerEtag('v1'));
    const onError = vi.fn();
    function Shell() {
      const [info, setInfo] = useState(held);
      return (
        <ApiClientProvider client={api}>
          <LedgerSection
            info={info}
            onChange={setInfo}
            onError={onError}
            onRefresh={() => Promise.resolve()}
            scheduleNames={NO_SCHEDULES}
            forecast={null}
            importStatementDialog={NoImportStatementDialog}
          />
        </ApiClientProvider>
      );
    }
    render(<Shell />);

    await user.click(screen.getByRole('button', { name: 'Pay Rent' }));
    await waitFor(() => expect(fetchImpl.mock.calls.map(([url]) => String(url).split('?')[0])).toContain('/api/ledger/retrieve-ledger'));
    const rent = screen.getByRole('cell', { name: /^Rent/ }).closest('tr');
    if (!rent) throw new Error('no Rent row');
    await waitFor(() => expect(within(rent).getAllByRole('cell')[1]?.textContent).toBe('Rent ✓Paid'));
    expect(within(rent).getByRole('button', { name: 'Pay Rent' })).toBeDisabled();
    expect(screen.getByRole('definition', { name: 'Pending Balance' }).textContent).toBe('$2,300.00');
    expect(onError).not.toHaveBeenCalled();
    expect(screen.queryByRole('dialog')).toBeNull();
  });
});
