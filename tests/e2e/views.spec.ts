/**
 * Issue 24 item 1 end to end: three views with their own addresses. Home (`/`) answers first and
 * paints from the forecast, never the whole ledger; Ledger (`/ledger`) holds the register; Plan
 * (`/plan`) the deposits and expenses. Each shows its sections at 1280 and 390 px and nothing
 * scrolls sideways at 320 px; the navigation bar works by keyboard, Back and Forward move between
 * the views, and a deep link to `/ledger` survives sign-in.
 *
 * One user, seeded once, serves every test. Its ledger starts today (the server's clock, on this
 * machine), so Home's next 14 days hold today's Rent.
 */
import { expect, type Page, type Request, test } from '@playwright/test';
import { LEDGER_PATHS } from '../../src/contract/ledger.js';
import { seedThroughApi } from './api-seed.js';
import { expectView, openView, VIEW_SECTIONS, viewLink, type ViewName } from './dashboard-actions.js';
import { ledgerRows, ledgerTable } from './dashboard-tables.js';
import { openSignedIn, signInAs } from './sign-in.js';
import { isoDay } from './machine-day.js';
import { readsAskedBy } from '../../src/contract/first-reads-query.js';

// One user per worker process: a worker started again after a failure seeds a fresh one.
const USER = `views-${process.pid}`;
const VIEWS = Object.keys(VIEW_SECTIONS) as ViewName[];

/** What only each view shows, once its data has loaded. */
async function expectViewContent(page: Page, view: ViewName, width: number): Promise<void> {
  const main = page.getByRole('main');
  if (view === 'Home') {
    await expect(main.getByText('You will have $300.00 left over each month!')).toBeVisible();
    await expect(main.getByRole('figure', { name: 'Balance forecast' })).toBeVisible();
    await expect(main.getByRole('list', { name: 'Next 14 days' }).getByText('Rent')).toBeVisible();
    await expect(main.getByRole('button', { name: 'Add Transaction' })).toBeVisible();
    // Neither the register nor the plan.
    await expect(ledgerTable(page)).toHaveCount(0);
    await expect(main.getByRole('list', { name: 'Transactions' })).toHaveCount(0);
    await expect(main.getByRole('button', { name: 'Add Deposit' })).toHaveCount(0);
  } else if (view === 'Ledger') {
    await expect(main.getByText(/^\d+ transactions?\.$/)).toBeVisible();
    // Wide, the register is a table; on a phone, a compact list.
    if (width >= 1100) await expect(ledgerTable(page)).toBeVisible();
    else await expect(main.getByRole('list', { name: 'Transactions' })).toBeVisible();
    await expect(main.getByRole('button', { name: 'Add Deposit' })).toHaveCount(0);
  } else {
    await expect(main.getByText('Total Monthly Deposits: $1,500.00')).toBeVisible();
    await expect(main.getByText('Total Monthly Expenses: $1,200.00')).toBeVisible();
    await expect(main.getByRole('button', { name: 'Add Deposit' })).toBeVisible();
    await expect(main.getByRole('button', { name: 'Add Expense' })).toBeVisible();
    await expect(main.getByRole('button', { name: 'New Ledger' })).toHaveCount(0);
  }
  // Only the view's own sections.
  const otherSections = VIEWS.filter((other) => other !== view).flatMap((other) => VIEW_SECTIONS[other]);
  for (const section of otherSections) await expect(page.getByRole('button', { name: section, exact: true })).toHaveCount(0);
}

async function sideways(page: Page): Promise<{ scrollWidth: number; clientWidth: number }> {
  return page.evaluate(() => {
    const scrolling = document.scrollingElement ?? document.documentElement;
    return { scrollWidth: scrolling.scrollWidth, clientWidth: scrolling.clientWidth };
  });
}

test.describe('Home, Ledger and Plan', () => {
  test.beforeAll(async ({ browser }) => {
    const context = await browser.newContext();
    const page = await context.newPage();
    await openSignedIn(page, USER);
    await expectView(page, 'Home');
    // Rent falls due today; $1,500 comes at the end of each month.
    await seedThroughApi(page, {
      deposits: [{ name: 'Acme', type: 'Direct Deposit', day: 'N/A', amount: 1500, startDate: isoDay(), frequency: 'EOM' }],
      expenses: [{ name: 'Rent', type: 'Housing', day: new Date().getDate(), amount: 1200 }],
      ledger: { startDate: isoDay(), endDate: isoDay(60), currentBalance: 400 },
    });
    await context.close();
  });

  test('a deep link to /ledger survives sign-in: a browser without a session lands on the Ledger', async ({ browser }) => {
    const context = await browser.newContext();
    const page = await context.newPage();
    await page.goto('/ledger');
    await expect(page).toHaveURL(/\/dev-sign-in\//);
    await signInAs(page, USER);
    await expect(page).toHaveURL(/\/ledger$/);
    await expectView(page, 'Ledger');
    await expect(ledgerTable(page)).toBeVisible();
    await expect(ledgerRows(page).first()).toBeVisible();
    await context.close();
  });

  test.describe('signed in on Home', () => {
    test.beforeEach(async ({ page }) => {
      await openSignedIn(page, USER);
      await expectView(page, 'Home');
    });

    test('each view shows its sections at 1280 and 390 px, and nothing scrolls sideways at 320 px', async ({ page }) => {
      for (const width of [1280, 390]) {
        await page.setViewportSize({ width, height: 900 });
        for (const view of VIEWS) {
          await test.step(`${view} at ${width} px`, async () => {
            await openView(page, view);
            await expect(viewLink(page, view)).toBeInViewport();
            for (const other of VIEWS.filter((candidate) => candidate !== view)) {
              await expect(viewLink(page, other)).not.toHaveAttribute('aria-current');
            }
            await expectViewContent(page, view, width);
          });
        }
      }
      await page.setViewportSize({ width: 320, height: 800 });
      for (const view of VIEWS) {
        await openView(page, view);
        await expectViewContent(page, view, 320);
        const { scrollWidth, clientWidth } = await sideways(page);
        expect(scrollWidth, `sideways scrolling on ${view} at 320 px`).toBeLessThanOrEqual(clientWidth);
      }
    });

    test('the keyboard reaches the Ledger link and Enter opens the Ledger', async ({ page }) => {
      const ledgerLink = viewLink(page, 'Ledger');
      const focused = () => ledgerLink.evaluate((link) => link === document.activeElement);
      // From the top of the page: the top bar's controls, then the views' links.
      for (let press = 0; press < 15 && !(await focused()); press += 1) await page.keyboard.press('Tab');
      await expect(ledgerLink).toBeFocused();
      await expect(ledgerLink).toBeInViewport();

      await page.keyboard.press('Enter');
      await expect(page).toHaveURL(/\/ledger$/);
      await expectView(page, 'Ledger');
      await expect(viewLink(page, 'Home')).not.toHaveAttribute('aria-current');
      await expect(ledgerRows(page).first()).toBeVisible();
    });

    test('Back and Forward move between the views and show the right one', async ({ page }) => {
      await openView(page, 'Ledger');
      await openView(page, 'Plan');

      await page.goBack();
      await expectView(page, 'Ledger');
      await expect(ledgerRows(page).first()).toBeVisible();
      await page.goBack();
      await expectView(page, 'Home');
      await expect(page.getByRole('list', { name: 'Next 14 days' })).toBeVisible();
      await page.goForward();
      await expectView(page, 'Ledger');
      await expect(ledgerRows(page).first()).toBeVisible();
      await page.goForward();
      await expectView(page, 'Plan');
      await expect(page.getByText('Total Monthly Expenses: $1,200.00')).toBeVisible();
    });

    test('Home paints from the forecast, without asking for the whole ledger', async ({ page }) => {
      const requested: string[] = [];
      // Each read by its path, alone or among the reload's first reads (decision 0128).
      const record = (request: Request) =>
        requested.push(...readsAskedBy(new URL(request.url())).map((read) => read.split('?')[0] ?? read));
      page.on('request', record);
      await page.reload();
      await expectView(page, 'Home');
      await expect(page.getByRole('list', { name: 'Next 14 days' }).getByText('Rent')).toBeVisible();
      await expect(page.getByRole('figure', { name: 'Balance forecast' }).locator('canvas')).toBeVisible();
      await page.waitForLoadState('networkidle');
      expect(requested).toContain(LEDGER_PATHS.forecast);
      expect(requested).not.toContain(LEDGER_PATHS.retrieve);

      // The Ledger asks for it: the recording sees the request when it is made.
      await openView(page, 'Ledger');
      expect(requested).toContain(LEDGER_PATHS.retrieve);
    });

    test("Home's Pay on a row of the next 14 days marks it Paid", async ({ page }) => {
      const rent = page.getByRole('list', { name: 'Next 14 days' }).getByRole('listitem').filter({ hasText: 'Rent' });
      await expect(rent.locator('.ledger-status')).toHaveText(/Unpaid$/);
      await rent.getByRole('button', { name: 'Pay Rent' }).click();
      await expect(rent.locator('.ledger-status')).toHaveText(/Paid$/);
      await expect(rent.locator('.ledger-status')).not.toHaveText(/Unpaid/);
      await expect(rent.getByRole('button', { name: 'Pay Rent' })).toBeDisabled();
      await expect(rent.getByRole('button', { name: 'Clear Rent' })).toBeEnabled();

      // The server holds it: the Ledger and a fresh Home show it paid.
      await openView(page, 'Ledger');
      await expect(ledgerTable(page).getByRole('row', { name: /Rent/ }).first().locator('.ledger-status')).toHaveText(/Paid$/);
      await page.goto('/');
      await expectView(page, 'Home');
      await expect(rent.locator('.ledger-status')).toHaveText(/Paid$/);
    });
  });
});
