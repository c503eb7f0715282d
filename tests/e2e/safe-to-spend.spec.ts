/**
 * Issue 36 end to end, at 1280 and 390 px: Home's first line (safe to spend until payday, and how
 * much is short), "Keep at least" and "Everyday spending" in Settings with Leftover's suggestion
 * from 13 weeks of history, "Can I afford it?" answering yes and no, and "Add it" then Undo; axe
 * finds nothing serious or critical on Home with an answer shown, nor in Settings. The data is put
 * in through our own API around the server's real today (the browser's zone is UTC, so the page's
 * today is the UTC date), so the sentences are worked out here from that day.
 */
import { AxeBuilder } from '@axe-core/playwright';
import { expect, type Locator, type Page, test } from '@playwright/test';
import { ACCOUNTS_PATHS } from '../../src/contract/accounts.js';
import { DEPOSITS_PATHS } from '../../src/contract/deposits.js';
import { LEDGER_PATHS } from '../../src/contract/ledger.js';
import { expectView, settled } from './dashboard-actions.js';
import { signInAs } from './sign-in.js';

test.use({ timezoneId: 'UTC' });

const DAY_MS = 24 * 60 * 60 * 1000;
/** The last 13 full weeks' everything-else, oldest first: their median is $95.00. */
const WEEKS = [80, 125, 90, 120, 85, 115, 95, 110, 91, 105, 92, 100, 94];
const WEEKS_TOTAL = WEEKS.reduce((sum, week) => sum + week, 0);

const iso = (time: number) => new Date(time).toISOString().slice(0, 10);
/** The product's one date style: "Fri, Dec 4, 2026". */
const shown = (date: string) =>
  new Intl.DateTimeFormat('en-US', { weekday: 'short', month: 'short', day: 'numeric', year: 'numeric', timeZone: 'UTC' }).format(
    new Date(`${date}T00:00:00Z`),
  );

/** Today (UTC) and the days around it, as the spec's data uses them. */
function calendar() {
  const today = Date.parse(`${new Date().toISOString().slice(0, 10)}T00:00:00Z`);
  const day = (offset: number) => iso(today + offset * DAY_MS);
  const weekday = new Date(today).getUTCDay();
  // The last full week (Monday to Sunday) ends on the last Sunday before today.
  const lastSunday = today - (weekday === 0 ? 7 : weekday) * DAY_MS;
  // A Thursday in each of the last 13 full weeks, oldest first.
  const market = WEEKS.map((_, index) => iso(lastSunday - (3 + 7 * (WEEKS.length - 1 - index)) * DAY_MS));
  return { day, market, paydayWeekday: new Date(today + 9 * DAY_MS).toLocaleDateString('en-US', { weekday: 'long', timeZone: 'UTC' }) };
}

/**
 * The ledger of the example, around today T: $1,000.00 today after 13 weeks of cleared
 * "Market" debits, Rent $800.00 due T+5 (added by hand) and a $1,200.00 paycheck every other week
 * from T+9.
 */
async function seed(page: Page): Promise<void> {
  const { day, market, paydayWeekday } = calendar();
  await page.evaluate(
    async ({ paths, days, market: dates, weeks, opening, weekday }) => {
      const key = Object.keys(sessionStorage).find((name) => name.startsWith('oidc.user:'));
      const user = JSON.parse(sessionStorage.getItem(key ?? '') ?? '{}') as { access_token?: string };
      const call = async (method: string, path: string, body: unknown) => {
        const response = await fetch(path, {
          method,
          headers: { authorization: `Bearer ${user.access_token ?? ''}`, 'content-type': 'application/json' },
          body: JSON.stringify(body),
        });
        if (!response.ok) throw new Error(`${method} ${path} answered ${response.status}: ${await response.text()}`);
        return (await response.json()) as { ledger?: { transactions: { id: string; date: string; name: string }[] } };
      };
      await call('POST', paths.deposit, {
        name: 'Acme',
        type: 'Direct Deposit',
        day: weekday,
        amount: 1200,
        startDate: days.payday,
        frequency: 'BW',
      });
      await call('POST', paths.create, { ledger: { startDate: days.start, endDate: days.end, currentBalance: opening } });
      for (const [index, date] of dates.entries()) {
        const ledger = await call('POST', paths.add, { date, name: 'Market', type: 'D', amount: weeks[index] });
        const row = ledger.ledger?.transactions.find((candidate) => candidate.date === date && candidate.name === 'Market');
        await call('PATCH', paths.update, { ...row, status: 'CLEARED' });
      }
      await call('POST', paths.add, { date: days.rent, name: 'Rent', type: 'D', amount: 800 });
    },
    {
      paths: {
        deposit: DEPOSITS_PATHS.add,
        create: LEDGER_PATHS.create,
        add: LEDGER_PATHS.addTransaction,
        update: LEDGER_PATHS.updateTransaction,
      },
      days: { start: day(-120), end: day(40), payday: day(9), rent: day(5) },
      market,
      weeks: WEEKS,
      opening: 1000 + WEEKS_TOTAL,
      weekday: paydayWeekday,
    },
  );
}

/**
 * Checking ($1,000.00, a $1,200.00 paycheck every other week from T+9) pays a Visa card that owes
 * $300.00, whose statement closes on T+2 and is due on T+6: the stored payment is $300.00.
 */
async function seedCard(page: Page): Promise<void> {
  const { day, paydayWeekday } = calendar();
  await page.evaluate(
    async ({ paths, days, weekday, closingDay, dueDay }) => {
      const key = Object.keys(sessionStorage).find((name) => name.startsWith('oidc.user:'));
      const user = JSON.parse(sessionStorage.getItem(key ?? '') ?? '{}') as { access_token?: string };
      const call = async (method: string, path: string, body: unknown) => {
        const response = await fetch(path, {
          method,
          headers: { authorization: `Bearer ${user.access_token ?? ''}`, 'content-type': 'application/json' },
          body: JSON.stringify(body),
        });
        if (!response.ok) throw new Error(`${method} ${path} answered ${response.status}: ${await response.text()}`);
        return (await response.json()) as { id?: string; accounts?: { id: string; primary: boolean }[] };
      };
      await call('POST', paths.deposit, {
        name: 'Acme',
        type: 'Direct Deposit',
        day: weekday,
        amount: 1200,
        startDate: days.payday,
        frequency: 'BW',
      });
      const span = { startDate: days.start, endDate: days.end };
      await call('POST', paths.create, { ledger: { ...span, currentBalance: 1000 } });
      const accounts = await fetch(paths.accounts, { headers: { authorization: `Bearer ${user.access_token ?? ''}` } }).then(
        (response) => response.json() as Promise<{ accounts: { id: string; primary: boolean }[] }>,
      );
      const checking = accounts.accounts.find((account) => account.primary)?.id ?? '';
      const card = { closingDay, dueDay, payFromAccountId: checking, rule: 'STATEMENT', amount: null, creditLimit: null };
      const visa = await call('POST', paths.accounts, { name: 'Visa', kind: 'CARD', card });
      await call('POST', paths.create.replace('/api/ledger/', `/api/accounts/${visa.id ?? ''}/ledger/`), {
        ledger: { ...span, currentBalance: -300 },
      });
    },
    {
      paths: { deposit: DEPOSITS_PATHS.add, create: LEDGER_PATHS.create, accounts: ACCOUNTS_PATHS.list },
      days: { start: day(0), end: day(40), payday: day(9) },
      weekday: paydayWeekday,
      closingDay: Number(day(2).slice(8)),
      dueDay: Number(day(6).slice(8)),
    },
  );
}

async function expectNoBlockingViolations(page: Page, where: string): Promise<void> {
  const results = await new AxeBuilder({ page }).analyze();
  const blocking = results.violations.filter((violation) => violation.impact === 'serious' || violation.impact === 'critical');
  expect(
    blocking.map((violation) => `${where}: ${violation.id}: ${violation.nodes.map((node) => node.html.slice(0, 120)).join(' | ')}`),
  ).toEqual([]);
}

function firstLine(page: Page): Locator {
  return page.locator('.safe-to-spend');
}

function affordSection(page: Page): Locator {
  return page.locator('.accordion-item').filter({ has: page.getByRole('heading', { name: 'Can I afford it?' }) });
}

async function ask(page: Page, amount: string, date: string): Promise<Locator> {
  const section = affordSection(page);
  await section.getByRole('textbox', { name: 'Amount' }).fill(amount);
  await section.getByLabel('Date').fill(date);
  await section.getByRole('button', { name: 'Check' }).click();
  return section.getByRole('status');
}

for (const [label, viewport] of [
  ['1280', { width: 1280, height: 900 }],
  ['390', { width: 390, height: 844 }],
] as const) {
  test.describe(`at ${label} px`, () => {
    test.use({ viewport });

    test('Home leads with safe to spend; Can I afford it? says yes and no; Add it then Undo; everyday spending from its suggestion', async ({
      page,
    }) => {
      test.setTimeout(120_000);
      const { day } = calendar();
      await page.goto('/');
      await signInAs(page, `safe-${label}`);
      await expectView(page, 'Home');
      await seed(page);
      await page.reload();
      await expectView(page, 'Home');

      // Home's first line: $1,000.00 today, $200.00 after Rent on T+5, payday T+9; $200.00 over 9 days.
      const safeLine = `Safe to spend until payday (${shown(day(9))}): $200.00 · about $22.22 a day`;
      await expect(firstLine(page)).toHaveText(safeLine);

      // Yes: $150.00 today leaves $50.00 on Rent's day.
      await expect(await ask(page, '150', day(0))).toHaveText(
        `Yes. After $150.00 on ${shown(day(0))}, your lowest balance before payday is $50.00 on ${shown(day(5))}.`,
      );
      // The purchase is drawn on the chart as a dashed line, and the chart as text says so.
      await expect(
        page.getByText('The dashed line is the balance after the purchase you asked about in "Can I afford it?".'),
      ).toBeAttached();
      // No: $250.00 tomorrow takes the balance below $0 on Rent's day.
      const status = await ask(page, '250', day(1));
      await expect(status).toHaveText(
        `No. $250.00 on ${shown(day(1))} takes your balance below $0 on ${shown(day(5))} (lowest -$50.00). Safe to spend until payday: $200.00.`,
      );
      await expectNoBlockingViolations(page, 'Home with an answer');

      // Add it: an unpaid row; Home's first line now says how much is short. Undo takes it back.
      await affordSection(page).getByRole('button', { name: 'Add it' }).click();
      await expect(status).toContainText('Added Purchase.');
      await expect(firstLine(page)).toHaveText(
        `You are $50.00 short before payday (${shown(day(9))}): the lowest point is ${shown(day(5))}, when Rent is due.`,
      );
      const undo = page.locator('.undo-region');
      await undo.getByRole('button', { name: 'Undo' }).click();
      await expect(undo).toContainText('Undone:');
      await settled(page);
      await expect(firstLine(page)).toHaveText(safeLine);

      // Settings: the suggestion from the last 13 full weeks, "Use it", saved.
      await page.getByRole('button', { name: 'Settings' }).click();
      const dialog = page.getByRole('dialog', { name: 'Settings' });
      await expect(dialog.getByText('You spent about $95.00 a week on everything else over the last 13 weeks.')).toBeVisible();
      await expect(dialog.getByRole('textbox', { name: 'Keep at least' })).toHaveValue('0.00');
      await dialog.getByRole('button', { name: 'Use it' }).click();
      await expect(dialog.getByRole('textbox', { name: 'Everyday spending' })).toHaveValue('95.00');
      await dialog.getByRole('button', { name: 'Save everyday spending' }).click();
      await expect(dialog.getByText('Saved. Your forecast now includes everyday spending.')).toBeVisible();
      await expectNoBlockingViolations(page, 'Settings');
      await dialog.getByRole('button', { name: 'Done' }).click();
      await expect(dialog).toBeHidden();

      // Everyday spending counts from tomorrow: $95.00 x 8 / 7 = $108.57 by T+8, so $91.43 over 9 days.
      await page.reload();
      await expectView(page, 'Home');
      await expect(firstLine(page)).toHaveText(`Safe to spend until payday (${shown(day(9))}): $91.43 · about $10.16 a day`);
      await expect(page.getByText('The forecast includes everyday spending: about $95.00 a week, an estimate.')).toBeVisible();
      await expectNoBlockingViolations(page, 'Home with everyday spending');
    });

    test('Everyday spending out of a card: chosen in Settings, its statement payment includes it on Home', async ({ page }) => {
      test.setTimeout(120_000);
      const { day } = calendar();
      await page.goto('/');
      await signInAs(page, `card-everyday-${label}`);
      await expectView(page, 'Home');
      await seedCard(page);
      await page.reload();
      await expectView(page, 'Home');
      // $1,000.00 less the $300.00 Visa payment on T+6, before payday on T+9.
      await expect(firstLine(page)).toContainText('$700.00');

      await page.getByRole('button', { name: 'Settings' }).click();
      const dialog = page.getByRole('dialog', { name: 'Settings' });
      const account = dialog.getByRole('combobox', { name: 'Comes out of' });
      await expect(account).toHaveValue(/.+/);
      await account.selectOption({ label: 'Visa (card)' });
      // The card's own history is asked for: it has none yet.
      await expect(dialog.getByText('Leftover suggests an amount after 4 full weeks of history; this account has 0.')).toBeVisible();
      await dialog.getByRole('textbox', { name: 'Everyday spending' }).fill('70');
      await dialog.getByRole('button', { name: 'Save everyday spending' }).click();
      await expect(dialog.getByText('Saved. Your forecast now includes everyday spending.')).toBeVisible();
      await expectNoBlockingViolations(page, 'Settings with an account choice');
      await dialog.getByRole('button', { name: 'Done' }).click();
      await expect(dialog).toBeHidden();

      // $10.00 a day on the card from tomorrow to its closing on T+2: the T+6 payment is $320.00.
      await page.reload();
      await expectView(page, 'Home');
      await expect(firstLine(page)).toContainText('$680.00');
      await expect(firstLine(page)).toContainText(shown(day(9)));
    });
  });
}
