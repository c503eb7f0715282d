/**
 * Data too long to type in through the dialogs (a ledger of hundreds of rows), put in through our
 * own API from the signed-in page, with the token the page holds: the same calls the page makes.
 */
import type { Page } from '@playwright/test';
import { DEPOSITS_PATHS } from '../../src/contract/deposits.js';
import { EXPENSES_PATHS } from '../../src/contract/expenses.js';
import { LEDGER_PATHS } from '../../src/contract/ledger.js';

/** One call: method, path and JSON body. */
interface ApiCall {
  readonly method: 'POST';
  readonly path: string;
  readonly body: unknown;
}

export interface SeedPlan {
  readonly deposits: readonly {
    name: string;
    type: 'Direct Deposit' | 'Check';
    day: string;
    amount: number;
    startDate: string;
    frequency: 'BW' | 'EOM';
  }[];
  readonly expenses: readonly { name: string; type: string; day: number; amount: number }[];
  readonly ledger: { readonly startDate: string; readonly endDate: string; readonly currentBalance: number };
}

/** Sends the calls one after another from the page; the first refused one fails the test with its answer. */
async function sendFromPage(page: Page, calls: readonly ApiCall[]): Promise<void> {
  await page.evaluate(async (all) => {
    const key = Object.keys(sessionStorage).find((name) => name.startsWith('oidc.user:'));
    const user = JSON.parse(sessionStorage.getItem(key ?? '') ?? '{}') as { access_token?: string };
    if (!user.access_token) throw new Error('no access token in sessionStorage: is the page signed in?');
    for (const call of all) {
      const response = await fetch(call.path, {
        method: call.method,
        headers: { authorization: `Bearer ${user.access_token}`, 'content-type': 'application/json' },
        body: JSON.stringify(call.body),
      });
      if (!response.ok) throw new Error(`${call.method} ${call.path} answered ${response.status}: ${await response.text()}`);
    }
  }, calls);
}

/** Adds the deposits and expenses of the signed-in user, then creates the ledger from them. */
export async function seedThroughApi(page: Page, plan: SeedPlan): Promise<void> {
  await sendFromPage(page, [
    ...plan.deposits.map((deposit) => ({ method: 'POST' as const, path: DEPOSITS_PATHS.add, body: deposit })),
    ...plan.expenses.map((expense) => ({ method: 'POST' as const, path: EXPENSES_PATHS.add, body: { ...expense, endDate: '' } })),
    { method: 'POST', path: LEDGER_PATHS.create, body: { ledger: plan.ledger } },
  ]);
}
