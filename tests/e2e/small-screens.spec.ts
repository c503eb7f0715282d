/**
 * Issue 16, item 3: every screen from 320 px up. With a 64-character user name (the longest the
 * development sign-in accepts) and data in every section, nothing is cut off or scrolls sideways,
 * "Sign out" stays inside the viewport and clickable, and every visible button (and view link) is at least
 * 24 x 24 CSS px (WCAG 2.2, 2.5.8), on each of the three views (issue 24). One test walks the
 * four widths and, at each, the views through the navigation bar; a full-page screenshot per view
 * and width is kept as a test artefact.
 */
import { expect, test } from '@playwright/test';
import { seedThroughApi } from './api-seed.js';
import { expectView, openView, settled, VIEW_SECTIONS, type ViewName } from './dashboard-actions.js';
import { openSignedIn } from './sign-in.js';

const WIDTHS = [320, 360, 390, 1280] as const;
const LONG_NAME = `small.screens-${'x'.repeat(50)}`;

test('at 320, 360, 390 and 1280 px nothing scrolls sideways, Sign out stays visible and every button is at least 24 x 24', async ({
  page,
}, testInfo) => {
  expect(LONG_NAME).toHaveLength(64);
  await openSignedIn(page, LONG_NAME);
  await expect(page.getByRole('button', { name: 'Sign out' })).toBeVisible();
  await settled(page);
  await seedThroughApi(page, {
    deposits: [
      { name: 'Acme Corporation Payroll', type: 'Direct Deposit', day: 'Friday', amount: 1000, startDate: '2055-01-01', frequency: 'BW' },
    ],
    expenses: [
      { name: 'Rent', type: 'Housing', day: 1, amount: 1200 },
      { name: 'Mobile phone and home internet', type: 'Utilities', day: 15, amount: 80.55 },
    ],
    ledger: { startDate: '2055-01-01', endDate: '2055-01-31', currentBalance: 500 },
  });
  await page.goto('/ledger');
  await expectView(page, 'Ledger');
  await expect(page.getByText('5 transactions.')).toBeVisible();

  const views = Object.keys(VIEW_SECTIONS) as ViewName[];
  for (const width of WIDTHS) {
    for (const view of views) {
      await test.step(`${view} at ${width} px`, async () => {
        await page.setViewportSize({ width, height: 800 });
        await openView(page, view);

        // The name is shown in full or truncated with the whole name in a title.
        const who = page.getByText('Signed in as');
        await expect(who).toBeVisible();
        await expect(who).toContainText(LONG_NAME);
        await expect(who).toHaveAttribute('title', LONG_NAME);

        const overflow = await page.evaluate(() => ({
          scrollWidth: document.documentElement.scrollWidth,
          clientWidth: document.documentElement.clientWidth,
        }));
        expect(overflow.scrollWidth, `sideways scrolling on ${view} at ${width} px`).toBeLessThanOrEqual(overflow.clientWidth);

        const signOut = page.getByRole('button', { name: 'Sign out' });
        await expect(signOut).toBeInViewport({ ratio: 1 });
        const box = await signOut.boundingBox();
        expect(box).not.toBeNull();
        if (box) {
          expect(box.x).toBeGreaterThanOrEqual(0);
          expect(box.x + box.width).toBeLessThanOrEqual(width);
        }
        // Clickable: nothing covers it (a trial click checks actionability without signing out).
        await signOut.click({ trial: true });

        const tooSmall = await page.evaluate(() =>
          // The views' links too: they are tapped as often as any button.
          [...document.querySelectorAll('button, nav[aria-label="Views"] a')]
            .map((button) => ({
              name: button.getAttribute('aria-label') ?? button.textContent ?? '',
              rect: button.getBoundingClientRect(),
            }))
            .filter(({ rect }) => rect.width > 0 && rect.height > 0)
            .filter(({ rect }) => rect.width < 24 || rect.height < 24)
            .map(({ name, rect }) => `${name.trim()} (${rect.width.toFixed(1)} x ${rect.height.toFixed(1)})`),
        );
        expect(tooSmall, `buttons under 24 x 24 on ${view} at ${width} px`).toEqual([]);

        await page.screenshot({ path: testInfo.outputPath(`${view.toLowerCase()}-${width}px.png`), fullPage: true });
        await testInfo.attach(`${view} at ${width} px`, {
          path: testInfo.outputPath(`${view.toLowerCase()}-${width}px.png`),
          contentType: 'image/png',
        });
      });
    }
  }
});
