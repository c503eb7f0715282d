/**
 * The warnings' words (issue 25 item 5, decision 0045): with several accounts the warning before
 * $0 names the account, as the issue words it; with one it reads as it always did; a card going
 * over its limit says so with the limit in dollars.
 */
import { render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { isoDate } from '../../domain/calendar-date.js';
import { cents } from '../../domain/money.js';
import { BelowZeroWarning } from './below-zero-warning.js';
import { OverLimitWarning } from './over-limit-warning.js';

const VISA_PAYMENT = { date: isoDate('2027-01-08'), name: 'Visa payment', balance: cents(-25_000) };

/** The warning's paragraph, matched as its whole text: the names in it are isolated in <bdi> elements. */
const sentence = (text: string) => screen.getByText((_, element) => element?.tagName === 'P' && element.textContent === text);

describe('the warning before $0', () => {
  it('names the account and the row that takes it below $0, each name isolated', () => {
    render(<BelowZeroWarning below={VISA_PAYMENT} account="Checking" />);
    const warning = sentence('Your Checking balance goes below $0 on Fri, Jan 8, 2027, when Visa payment is due.');
    expect([...warning.querySelectorAll('bdi')].map((bdi) => bdi.textContent)).toEqual(['Checking ', 'Visa payment']);
    expect(warning.closest('.alert')?.querySelector('svg')).not.toBeNull();
  });

  it('reads as it always did without an account: one account is simply "your balance"', () => {
    render(<BelowZeroWarning below={{ ...VISA_PAYMENT, name: 'Rent' }} />);
    const warning = sentence('Your balance goes below $0 on Fri, Jan 8, 2027, when Rent is due.');
    expect([...warning.querySelectorAll('bdi')].map((bdi) => bdi.textContent)).toEqual(['Rent']);
  });

  it('keeps an account name that reverses text from reordering the sentence', () => {
    render(<BelowZeroWarning below={VISA_PAYMENT} account={'\u202eKCEHC'} />);
    const warning = sentence('Your \u202eKCEHC balance goes below $0 on Fri, Jan 8, 2027, when Visa payment is due.');
    expect(warning.querySelector('bdi')?.textContent).toBe('\u202eKCEHC ');
  });
});

describe('a card over its limit', () => {
  it('names the card, its limit in dollars and the day it goes over', () => {
    render(<OverLimitWarning card="Visa" creditLimit={cents(100_000)} over={{ ...VISA_PAYMENT, date: isoDate('2026-12-21') }} />);
    const warning = sentence('Your Visa card goes over its $1,000.00 limit on Mon, Dec 21, 2026.');
    expect(warning.querySelector('bdi')?.textContent).toBe('Visa');
    expect(warning.closest('.alert')?.querySelector('svg')).not.toBeNull();
  });
});
