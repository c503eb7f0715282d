import { render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { cents } from '../../../domain/money.js';
import { SummarySection } from './summary-section.js';

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
