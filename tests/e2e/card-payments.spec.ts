/**
 * Issue 25 items 4 and 5 end to end (decision 0045): a Visa card added in Plan, closing today and
 * due in ten days, is charged in its own ledger; its payment appears in Checking's ledger and
 * Home's warning names Checking and the payment; a charge past the card's limit is warned of; the
 * payment is paid from Home; a statement imported into the card's ledger is owed on the next
 * statement, paid from Checking; the card's settings changed in Plan move its next payment.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect, type Page, test } from '@playwright/test';
import { seedThroughApi } from './api-seed.js';
import { addTransaction, createLedger, openView, settled } from './dashboard-actions.js';
import { ledgerRows, usTableDate } from './dashboard-tables.js';
import { openSignedIn } from './sign-in.js';
import { dayAt, isoDay } from './machine-day.js';

const USER = `card-payments-${process.pid}`;

/** How a person in the US reads the date ('Fri, Jan 8, 2027'). */
const shown = (offsetDays: number) => usTableDate(isoDay(offsetDays));

/** The warning, as its whole sentence: the names in it are isolated in <bdi> elements. */
const sentence = (page: Page, text: string) =>
  page.locator('p').filter({ hasText: new RegExp(`^${text.replace(/[$.()]/g, (character) => `\\${character}`)}$`) });

async function chooseAccount(page: Page, name: string): Promise<void> {
  await page.getByRole('combobox', { name: 'Account' }).selectOption({ label: name });
  await expect(page).toHaveURL(/\/ledger\?account=/);
  await settled(page);
}

test('a card’s payment is projected into Checking, warned of by name, paid, and follows a statement imported into the card', async ({
  page,
}) => {
  await openSignedIn(page, USER, '/plan');
  await expect(page.getByRole('button', { name: 'Add Account' })).toBeEnabled();
  await seedThroughApi(page, { deposits: [], expenses: [], ledger: { startDate: isoDay(), endDate: isoDay(120), currentBalance: 300 } });
  await page.reload();
  await settled(page);

  // Plan: a Visa card, its statement closing today and due ten days later, paid from Checking.
  await page.getByRole('button', { name: 'Add Account' }).click();
  const adding = page.getByRole('dialog', { name: 'Add Account' });
  await adding.getByLabel('Name').fill('Visa');
  await adding.getByLabel('Kind').selectOption('Credit card');
  await adding.getByLabel('Closing day').fill(String(dayAt().getDate()));
  await adding.getByLabel('Payment due day').fill(String(dayAt(10).getDate()));
  await adding.getByLabel('Pay from').selectOption({ label: 'Checking' });
  await adding.getByLabel('Payment rule').selectOption('Statement balance');
  await adding.getByLabel('Credit limit (optional)').fill('1000');
  await adding.getByRole('button', { name: 'Add', exact: true }).click();
  await expect(adding).toBeHidden();

  // Ledger: the card's own ledger, charged $500 today.
  await openView(page, 'Ledger');
  await chooseAccount(page, 'Visa');
  await createLedger(page, { startDate: isoDay(), endDate: isoDay(120), currentBalance: '0' });
  await addTransaction(page, { date: isoDay(), name: 'Laptop', type: 'D', amount: '500' });
  const main = page.getByRole('main');
  await expect(main.getByRole('button', { name: 'Pay Visa payment' })).toHaveCount(1);

  // Checking's ledger has the payment on the due day, and its warning names it.
  await chooseAccount(page, 'Checking');
  await expect(main.getByRole('button', { name: 'Pay Visa payment' })).toHaveCount(1);
  const belowZero = `Your Checking balance goes below $0 on ${shown(10)}, when Visa payment is due.`;
  await expect(sentence(page, belowZero)).toBeVisible();

  // Home: the same warning, and the card over its limit once it is charged $600 more.
  await chooseAccount(page, 'Visa');
  await addTransaction(page, { date: isoDay(1), name: 'Phone', type: 'D', amount: '600' });
  await openView(page, 'Home');
  await expect(sentence(page, belowZero)).toBeVisible();
  await expect(sentence(page, `Your Visa card goes over its $1,000.00 limit on ${shown(1)}.`)).toBeVisible();

  // Pay it from Home's next 14 days: it stays $500 whatever the card does now.
  await page.getByRole('button', { name: 'Pay Visa payment' }).click();
  await expect(page.getByRole('listitem').filter({ hasText: 'Visa payment' })).toContainText('Paid');
  await settled(page);

  // Import a statement into the card: its rows are owed on next month's statement, paid from Checking.
  const statement = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'leftover-card-')), 'visa.csv');
  fs.writeFileSync(statement, `Date,Description,Amount\n${isoDay(2)},BOOKSHOP,-42.10\n`);
  await openView(page, 'Ledger');
  await chooseAccount(page, 'Visa');
  await page.getByRole('button', { name: 'Import', exact: true }).click();
  const importing = page.getByRole('dialog', { name: 'Import Statement' });
  await importing.getByLabel('Statement file').setInputFiles(statement);
  await expect(importing.getByRole('region', { name: 'Preview' })).toBeVisible();
  await importing.getByRole('button', { name: 'Import', exact: true }).click();
  await expect(importing).toBeHidden();
  await settled(page);

  await chooseAccount(page, 'Checking');
  const payments = ledgerRows(page).filter({ hasText: 'Visa payment' });
  // The paid one, and next month's: the $600 charged after today's closing and the $42.10 imported.
  await expect(payments).toHaveCount(2);
  await expect(payments.last()).toContainText('$642.10');

  // Plan: the card's settings as stored, changed to a fixed $100 a month. Its payments follow; the
  // paid one stands.
  await openView(page, 'Plan');
  await page.getByRole('button', { name: 'Card settings of Visa' }).click();
  const settings = page.getByRole('dialog', { name: 'Visa Card Settings' });
  await expect(settings.getByLabel('Closing day')).toHaveValue(String(dayAt().getDate()));
  await expect(settings.getByLabel('Credit limit (optional)')).toHaveValue('1000.00');
  await settings.getByLabel('Payment rule').selectOption('Fixed');
  await settings.getByLabel('Payment amount').fill('100');
  await settings.getByRole('button', { name: 'Save' }).click();
  await expect(settings).toBeHidden();
  await openView(page, 'Ledger');
  await expect(page.getByRole('combobox', { name: 'Account' }).locator('option:checked')).toHaveText('Checking');
  // $100 on each statement's due day while the card still owes, in place of next month's $642.10.
  await expect(payments.nth(1)).toContainText('$100.00');
  await expect(payments.first()).toContainText('$500.00');
  await expect(payments.filter({ hasText: '$642.10' })).toHaveCount(0);
  expect(await payments.count()).toBeGreaterThanOrEqual(3);
  for (const later of (await payments.all()).slice(1)) await expect(later).toContainText('$100.00');
});
