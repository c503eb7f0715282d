import { render, screen, waitFor } from '@testing-library/react';
import { userEvent } from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import type { WhatIfAnswer } from '../../../contract/what-if.js';
import { isoDate } from '../../../domain/calendar-date.js';
import type { AccountView } from '../../../contract/account-codecs.js';
import { cents } from '../../../domain/money.js';
import type { ApiClient } from '../../api/api-client.js';
import { ApiClientProvider } from '../../api/api-context.js';
import { fakeApiClient } from '../../test-support/fake-api-client.js';
import { whatIfAccountAnswer } from '../../test-support/what-if-answers.js';
import { CanIAffordIt } from './can-i-afford-it.js';

const ANSWER: WhatIfAnswer = {
  accounts: [
    whatIfAccountAnswer({ affordable: true, lowest: { date: '2026-12-01', name: 'Visa payment', balance: 112.4 }, until: '2026-12-04' }),
  ],
};

const CHECKING: AccountView = {
  id: 'a1',
  name: 'Checking',
  kind: 'CHECKING',
  currentBalance: cents(100_000),
  pendingBalance: cents(100_000),
  primary: true,
  card: null,
};
const SAVINGS: AccountView = { ...CHECKING, id: 's1', name: 'Savings', kind: 'SAVINGS', primary: false };

describe('Can I afford it?', () => {
  it('asks the what-if with the amount and today, answers in one sentence, and Add it adds an unpaid row', async () => {
    const request = vi.fn(async () => ANSWER);
    const added = vi.fn(async () => ({}) as Awaited<ReturnType<ApiClient['addTransactionChanges']>>);
    const onAdded = vi.fn();
    const asked = vi.fn();
    render(
      <ApiClientProvider client={fakeApiClient({ request: request as unknown as ApiClient['request'], addTransactionChanges: added })}>
        <CanIAffordIt today={isoDate('2026-11-27')} accounts={[CHECKING]} onAdded={onAdded} onAsked={asked} />
      </ApiClientProvider>,
    );
    const user = userEvent.setup();
    expect((screen.getByLabelText('Date') as HTMLInputElement).value).toBe('2026-11-27');
    // One account: no Account field.
    expect(screen.queryByRole('combobox', { name: 'Account' })).toBeNull();
    await user.type(screen.getByRole('textbox', { name: 'Amount' }), '200');
    await user.click(screen.getByRole('button', { name: 'Check' }));
    await screen.findByText('Yes. After $200.00 on Fri, Nov 27, 2026, your lowest balance before payday is $112.40 on Tue, Dec 1, 2026.');
    expect(request).toHaveBeenCalledWith(expect.objectContaining({ body: { items: [{ date: '2026-11-27', amount: 200 }] } }));
    // Home draws it dashed on the chart ...
    expect(asked).toHaveBeenLastCalledWith([{ date: '2026-11-27', amount: 20_000 }]);
    await user.click(screen.getByRole('button', { name: 'Add it' }));
    await waitFor(() => expect(added).toHaveBeenCalledWith({ date: '2026-11-27', name: 'Purchase', type: 'D', amount: 200 }));
    expect(onAdded).toHaveBeenCalled();
    // ... until it is added: then it is in the forecast itself.
    expect(asked).toHaveBeenLastCalledWith(null);
  });

  it('asks for the account chosen when there are several, names it in the answer, and adds the purchase there', async () => {
    const no: WhatIfAnswer = {
      accounts: [
        whatIfAccountAnswer({
          accountId: 's1',
          affordable: false,
          lowest: { date: '2026-12-15', name: 'Purchase', balance: -87.6 },
          until: '2026-12-18',
        }),
      ],
    };
    const request = vi.fn(async () => no);
    const added = vi.fn(async () => ({}) as Awaited<ReturnType<ApiClient['addTransactionChanges']>>);
    const asked = vi.fn();
    const client = fakeApiClient({ request: request as unknown as ApiClient['request'] });
    client.withEndpoints.mockImplementation(() => fakeApiClient({ addTransactionChanges: added }));
    render(
      <ApiClientProvider client={client}>
        <CanIAffordIt today={isoDate('2026-12-11')} accounts={[CHECKING, SAVINGS]} onAdded={vi.fn()} onAsked={asked} />
      </ApiClientProvider>,
    );
    const user = userEvent.setup();
    const account = await screen.findByRole('combobox', { name: 'Account' });
    expect((account as HTMLSelectElement).value).toBe('a1');
    await user.selectOptions(account, 'Savings');
    await user.type(screen.getByRole('textbox', { name: 'Amount' }), '400');
    await user.click(screen.getByRole('button', { name: 'Check' }));
    await screen.findByText(
      'No. $400.00 on Fri, Dec 11, 2026 takes Savings below $0 on Tue, Dec 15, 2026 (lowest -$87.60). Safe to spend until payday: $312.40.',
    );
    expect(request).toHaveBeenCalledWith(
      expect.objectContaining({ body: { items: [{ date: '2026-12-11', amount: 400, accountId: 's1' }] } }),
    );
    await user.click(screen.getByRole('button', { name: 'Add it' }));
    await waitFor(() => expect(added).toHaveBeenCalledWith({ date: '2026-12-11', name: 'Purchase', type: 'D', amount: 400 }));
  });
});
