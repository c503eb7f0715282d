import { render, screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { LedgerView } from '../../../contract/codecs.js';
import type { LedgerTransaction } from '../../../contract/ledger.js';
import { isoDate } from '../../../domain/calendar-date.js';
import { cents } from '../../../domain/money.js';
import { chartPoints } from '../../../domain/forecast.js';
import { ledgerForecast } from '../../forecast/ledger-forecast.js';
import { ledgerAnswer } from '../../test-support/answers.js';
import { type SummaryForecast, SummarySection } from './summary-section.js';

/** What Home hands the Summary, computed here from a whole ledger with the same domain functions as the server's answer. */
function summaryForecast(ledger: LedgerView, today: string | null): SummaryForecast {
  const day = today === null ? null : isoDate(today);
  const { lowest, firstBelowZero, rows } = ledgerForecast(ledger, day);
  const { openingBalance, startDate, endDate } = ledger;
  return { lowest, firstBelowZero, chart: { openingBalance, startDate, endDate, points: chartPoints(rows), today: day, lowest } };
}

function renderSummary(totalDepositCents: number, totalExpenseCents: number) {
  render(<SummarySection totalDeposits={cents(totalDepositCents)} totalExpenses={cents(totalExpenseCents)} />);
}

describe('SummarySection', () => {
  it.each([
    ['no deposits and no expenses', 0, 0],
    ['deposits but no expenses', 325_000, 0],
    ['expenses but no deposits', 0, 155_999],
  ])('asks for both totals with %s', (_case, deposits, expenses) => {
    renderSummary(deposits, expenses);
    expect(screen.getByRole('status')).toHaveTextContent(/^Please add deposits and\/or expenses!$/);
    expect(screen.getByText('Please add deposits and/or expenses!')).toBeInTheDocument();
  });

  it('says what is left over each month, in US dollars', () => {
    renderSummary(325_000, 155_999);
    expect(screen.getByText('You will have $1,690.01 left over each month!')).toBeInTheDocument();
    expect(screen.getByRole('status')).toHaveTextContent(/^You will have \$1,690\.01 left over each month!$/);
    expect(screen.getByRole('status').querySelector('.alert-warning')).toBeNull();
  });

  it('says nothing is left over when deposits and expenses are equal', () => {
    renderSummary(100_000, 100_000);
    expect(screen.getByText('You will have $0.00 left over each month!')).toBeInTheDocument();
  });

  it('warns by how much the month falls short, in a warning style', () => {
    renderSummary(100_000, 123_456);
    const message = screen.getByText('You will be $234.56 short each month!');
    expect(message.closest('.alert')).toHaveClass('alert-warning');
    expect(screen.getByRole('status')).toHaveTextContent(/^You will be \$234\.56 short each month!$/);
    expect(screen.queryByText(/left over/)).not.toBeInTheDocument();
  });

  it('shows thousands separators and cents exactly', () => {
    renderSummary(1_000_000_010, 20);
    expect(screen.getByText('You will have $9,999,999.90 left over each month!')).toBeInTheDocument();
  });
});

describe('SummarySection forecast', () => {
  const row = (id: string, date: string, name: string, type: 'C' | 'D', amount: number, balance: number): LedgerTransaction => ({
    id,
    date,
    name,
    type,
    amount,
    balance,
    status: 'PENDING',
    source: type === 'C' ? { kind: 'deposit', id: 'd1', occurrence: date, edited: false } : null,
  });
  const ledger = (transactions: LedgerTransaction[]): LedgerView =>
    ledgerAnswer({
      startDate: '2027-01-01',
      endDate: '2027-01-31',
      openingBalance: 100,
      currentBalance: 100,
      pendingBalance: 100,
      transactions,
    });
  const DIP = ledger([
    row('pay1', '2027-01-01', 'Acme Paycheck', 'C', 1000, 1100),
    row('rent', '2027-01-05', 'Rent', 'D', 1200, -100),
    row('phone', '2027-01-06', 'Phone', 'D', 50.55, -150.55),
    row('pay2', '2027-01-15', 'Acme Paycheck', 'C', 1000, 849.45),
  ]);

  function renderForecast(current: LedgerView, today: string | null) {
    const forecast = summaryForecast(current, today);
    return render(<SummarySection totalDeposits={cents(200_000)} totalExpenses={cents(125_055)} forecast={forecast} />);
  }

  it('names the lowest balance ahead and warns, in words, on the first day below $0 and the bill due then', () => {
    renderForecast(DIP, '2026-12-01');
    const status = screen.getByRole('status');
    expect(within(status).getByText('Lowest balance ahead: -$150.55 on Wed, Jan 6, 2027')).toBeInTheDocument();
    // The bill's name is isolated in a <bdi>, so the sentence is matched as the paragraph's whole text.
    const warning = within(status).getByText(
      (_, element) =>
        element?.tagName === 'P' && element.textContent === 'Your balance goes below $0 on Tue, Jan 5, 2027, when Rent is due.',
    );
    expect(warning.querySelector('bdi')?.textContent).toBe('Rent');
    expect(warning.closest('.alert')?.querySelector('svg')).not.toBeNull();
    // Said once, politely: no alert role on every load.
    expect(screen.queryByRole('alert')).toBeNull();
  });

  it('looks only at rows dated today or later', () => {
    renderForecast(DIP, '2027-01-07');
    expect(screen.getByText('Lowest balance ahead: $849.45 on Fri, Jan 15, 2027')).toBeInTheDocument();
    expect(screen.queryByText(/goes below \$0/)).toBeNull();
  });

  it('says no lowest balance when no row is ahead, and shows the chart by its name', async () => {
    renderForecast(DIP, '2027-02-01');
    expect(screen.getByRole('status')).not.toHaveTextContent(/Lowest balance ahead/);
    expect(await screen.findByRole('figure', { name: 'Balance forecast' })).toBeInTheDocument();
  });

  it('changes the warning when an edit moves the first dip', () => {
    const view = renderForecast(DIP, '2026-12-01');
    const smallerRent = ledger([
      row('pay1', '2027-01-01', 'Acme Paycheck', 'C', 1000, 1100),
      row('rent', '2027-01-05', 'Rent', 'D', 1000, 100),
      row('phone', '2027-01-06', 'Phone', 'D', 150.55, -50.55),
      row('pay2', '2027-01-15', 'Acme Paycheck', 'C', 1000, 949.45),
    ]);
    const forecast = summaryForecast(smallerRent, '2026-12-01');
    view.rerender(<SummarySection totalDeposits={cents(200_000)} totalExpenses={cents(125_055)} forecast={forecast} />);
    expect(screen.getByRole('status')).toHaveTextContent('Your balance goes below $0 on Wed, Jan 6, 2027, when Phone is due.');
  });
});
