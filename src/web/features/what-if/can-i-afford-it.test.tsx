import { render, screen, waitFor } from '@testing-library/react';
import { userEvent } from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import type { WhatIfAnswer } from '../../../contract/what-if.js';
import { isoDate } from '../../../domain/calendar-date.js';
import type { ApiClient } from '../../api/api-client.js';
import { ApiClientProvider } from '../../api/api-context.js';
import { fakeApiClient } from '../../test-support/fake-api-client.js';
import { CanIAffordIt } from './can-i-afford-it.js';

const SAFE = {
  amount: 312.4,
  perDay: 52.07,
  until: '2026-12-04',
  untilReason: 'PAYDAY',
  lowestDate: '2026-12-01',
  lowestName: 'Visa payment',
  buffer: 0,
} as const;

const ANSWER: WhatIfAnswer = {
  accounts: [
    {
      accountId: 'a1',
      before: { lowest: null, firstBelowZero: null, safeToSpend: SAFE },
      after: { lowest: null, firstBelowZero: null, safeToSpend: SAFE },
      lowestBeforePayday: { date: '2026-12-01', name: 'Visa payment', balance: 112.4, until: '2026-12-04', untilReason: 'PAYDAY' },
      affordable: true,
    },
  ],
};

describe('Can I afford it?', () => {
  it('asks the what-if with the amount and today, answers in one sentence, and Add it adds an unpaid row', async () => {
    const request = vi.fn(async () => ANSWER);
    const added = vi.fn(async () => ({}) as Awaited<ReturnType<ApiClient['addTransactionChanges']>>);
    const onAdded = vi.fn();
    render(
      <ApiClientProvider client={fakeApiClient({ request: request as unknown as ApiClient['request'], addTransactionChanges: added })}>
        <CanIAffordIt today={isoDate('2026-11-27')} onAdded={onAdded} />
      </ApiClientProvider>,
    );
    const user = userEvent.setup();
    expect((screen.getByLabelText('Date') as HTMLInputElement).value).toBe('2026-11-27');
    await user.type(screen.getByRole('textbox', { name: 'Amount' }), '200');
    await user.click(screen.getByRole('button', { name: 'Check' }));
    await screen.findByText('Yes. After $200.00 on Fri, Nov 27, 2026, your lowest balance before payday is $112.40 on Tue, Dec 1, 2026.');
    expect(request).toHaveBeenCalledWith(expect.objectContaining({ body: { items: [{ date: '2026-11-27', amount: 200 }] } }));
    await user.click(screen.getByRole('button', { name: 'Add it' }));
    await waitFor(() => expect(added).toHaveBeenCalledWith({ date: '2026-11-27', name: 'Purchase', type: 'D', amount: 200 }));
    expect(onAdded).toHaveBeenCalled();
  });
});
