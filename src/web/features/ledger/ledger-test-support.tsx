/**
 * Test helpers for the Ledger feature: the network is stubbed only at the api client, and the
 * section renders inside the same provider the app uses.
 */
import { act, render } from '@testing-library/react';
import { type Mock, vi } from 'vitest';
import type { LedgerInfoView } from '../../../contract/codecs.js';
import type { Ledger, LedgerTransaction } from '../../../contract/ledger.js';
import type { IsoDate } from '../../../domain/calendar-date.js';
import { ApiClientProvider } from '../../api/api-context.js';
import { ledgerForecast } from '../../forecast/ledger-forecast.js';
import { ledgerAnswer } from '../../test-support/answers.js';
import { fakeApiClient, type FakeApiClient } from '../../test-support/fake-api-client.js';
import { LedgerSection, type LedgerSectionProps } from './ledger-section.js';
import type { ScheduleNames } from './row-source.js';

let nextId = 1;

/** A row as the server sends it: dollars and date strings. */
export function transaction(fields: Partial<LedgerTransaction> = {}): LedgerTransaction {
  const id = `t${nextId++}`;
  return { id, date: '2026-03-01', name: 'Rent', type: 'D', amount: 1200, balance: 800, status: 'PENDING', source: null, ...fields };
}

/** The ledger answer with these rows, as the api client hands it to the page: decoded (decision 0034). */
export function ledgerInfo(transactions: LedgerTransaction[], fields: Partial<Omit<Ledger, 'transactions'>> = {}): LedgerInfoView {
  return {
    ledger: ledgerAnswer({
      startDate: '2026-03-01',
      endDate: '2026-12-31',
      openingBalance: 2000,
      currentBalance: 2000,
      pendingBalance: 2000,
      transactions,
      ...fields,
    }),
  };
}

/** Both lists loaded, and empty. */
/** Opening $2,000: a cleared $1,500 paycheck on Mar 1, 2026, then $1,200 rent, unpaid. */
export const PAYCHECK: LedgerTransaction = {
  id: 'pay',
  date: '2026-03-01',
  name: 'Acme Paycheck',
  type: 'C',
  amount: 1500,
  balance: 3500,
  status: 'CLEARED',
  source: null,
};
export const RENT: LedgerTransaction = { ...PAYCHECK, id: 'rent', name: 'Rent', type: 'D', amount: 1200, balance: 2300, status: 'PENDING' };

export const NO_SCHEDULES: ScheduleNames = { deposit: new Map(), expense: new Map() };

interface RenderedLedger {
  readonly api: FakeApiClient;
  readonly onChange: Mock<LedgerSectionProps['onChange']>;
  readonly onError: Mock<LedgerSectionProps['onError']>;
  readonly onRefresh: Mock<LedgerSectionProps['onRefresh']>;
  readonly rerender: (info: LedgerInfoView | null) => void;
}

/** The shell hands the section the statements feature's dialog; the ledger's own tests import no statement. */
export function NoImportStatementDialog() {
  return null;
}

export function renderLedger(
  info: LedgerInfoView | null,
  api: FakeApiClient = fakeApiClient(),
  scheduleNames: ScheduleNames = NO_SCHEDULES,
  today: IsoDate | null = null,
  importStatementDialog: LedgerSectionProps['importStatementDialog'] = NoImportStatementDialog,
): RenderedLedger {
  const onChange = vi.fn<LedgerSectionProps['onChange']>();
  const onError = vi.fn<LedgerSectionProps['onError']>();
  const onRefresh = vi.fn<LedgerSectionProps['onRefresh']>(() => Promise.resolve());
  const section = (current: LedgerInfoView | null) => (
    <ApiClientProvider client={api}>
      <LedgerSection
        info={current}
        onChange={onChange}
        onError={onError}
        onRefresh={onRefresh}
        scheduleNames={scheduleNames}
        // As the shell does: the forecast of the ledger shown.
        forecast={current?.ledger ? ledgerForecast(current.ledger, today) : null}
        importStatementDialog={importStatementDialog}
      />
    </ApiClientProvider>
  );
  const view = render(section(info));
  return { api, onChange, onError, onRefresh, rerender: (next) => view.rerender(section(next)) };
}

/** jsdom has no matchMedia, so the layout hook reads innerWidth; resize tells it to look again. */
export function setWindowWidth(width: number): void {
  Object.defineProperty(window, 'innerWidth', { configurable: true, writable: true, value: width });
  act(() => {
    window.dispatchEvent(new Event('resize'));
  });
}

/**
 * Lets the frame after the current one be produced: the rows' window adds its overscan then
 * (decision 0121), so a test that compares windows waits for it first.
 */
export async function afterNextFrame(): Promise<void> {
  await act(() => new Promise<void>((resolve) => requestAnimationFrame(() => setTimeout(resolve, 0))));
}
