import { render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { SafeToSpendView } from '../../contract/codecs.js';
import { isoDate } from '../../domain/calendar-date.js';
import { cents } from '../../domain/money.js';
import { SafeToSpendLine } from './safe-to-spend-line.js';

const SAFE: SafeToSpendView = {
  amount: cents(31_240),
  perDay: cents(5_207),
  until: isoDate('2026-12-04'),
  untilReason: 'PAYDAY',
  lowestDate: isoDate('2026-12-01'),
  lowestName: 'Visa payment',
  buffer: cents(0),
};

const lineOf = (props: Parameters<typeof SafeToSpendLine>[0]) => {
  const { container } = render(<SafeToSpendLine {...props} />);
  return container.textContent;
};

describe('Home’s first line', () => {
  it('says safe to spend until payday and a day’s share, in the one date style', () => {
    expect(lineOf({ safe: SAFE })).toBe('Safe to spend until payday (Fri, Dec 4, 2026): $312.40 · about $52.07 a day');
  });

  it('says how much is short and when the lowest point is, naming the account when there are several', () => {
    const short = { ...SAFE, amount: cents(-19_000), perDay: null };
    expect(lineOf({ safe: short })).toBe(
      'You are $190.00 short before payday (Fri, Dec 4, 2026): the lowest point is Tue, Dec 1, 2026, when Visa payment is due.',
    );
    expect(lineOf({ safe: short, account: 'Checking' })).toBe(
      'You are $190.00 short in Checking before payday (Fri, Dec 4, 2026): the lowest point is Tue, Dec 1, 2026, when Visa payment is due.',
    );
    expect(screen.getAllByText('Checking', { selector: 'bdi' })).toHaveLength(1);
  });

  it('says when the window runs to the ledger’s end', () => {
    expect(lineOf({ safe: { ...SAFE, untilReason: 'LEDGER_END', until: isoDate('2026-12-31') }, account: 'Checking' })).toBe(
      "Safe to spend in Checking until the ledger's end (Thu, Dec 31, 2026): $312.40 · about $52.07 a day",
    );
  });
});
