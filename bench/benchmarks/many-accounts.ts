/**
 * Benchmark 11, many accounts cost nothing the user waits for (issue 25's "Done when"): a user with
 * 5 accounts of 2,000 rows each against a user with one account of 2,000 rows, in Chromium driven
 * by Playwright against the built server, at desktop width, as benchmark 5 measures:
 *  - 11a first view: from the start of navigation to the Ledger view (`/ledger`, the primary
 *    account's ledger) painted as a user sees it (benchmark 5b's probe);
 *  - 11b Pay: from the click on a row's Pay button to the row's new badge and the new Pending
 *    Balance painted (benchmark 5a's).
 * Both users' primary accounts hold the same 2,000 rows; the other user's four more accounts each
 * hold 2,000 of their own (10,000 rows in all, half the per-user limit), made from their own
 * deposits and expenses as a person makes them. The two users take turns in their own browser
 * contexts, as in benchmark 5, whose probe, sign-in, seeding and steps this shares.
 */
import type { Browser, Page } from '@playwright/test';
import { ACCOUNT_LEDGER_PATHS, ACCOUNTS_PATHS, accountSchema } from '../../src/contract/accounts.js';
import { ledgerInfoSchema } from '../../src/contract/ledger.js';
import type { PrivateBuild } from '../lib/build.js';
import { ApiClient } from '../lib/http-client.js';
import {
  clickPayAnswered,
  DESKTOP,
  type LedgerPage,
  loadLedger,
  openLedgerPage,
  sampleList,
  scrollToPayableRow,
  settleAfterPay,
  TABLE_LAYOUT,
  withLeftoverInChromium,
} from '../lib/page-probe.js';
import { type BenchResult, result } from '../lib/report.js';
import { addSchedules, createLedgerBody, planForRows } from '../lib/seed.js';
import type { BenchSettings } from '../lib/settings.js';
import { median, round } from '../lib/stats.js';

const ROWS = 2000;
const ACCOUNTS = 5;

interface Viewer extends LedgerPage {
  readonly label: string;
  readonly loads: number[];
  readonly pays: number[];
  /** Each Pay's PATCH, from its start to its answer's last byte (Chromium's timing): the server's part, in the note. */
  readonly answers: number[];
}

/** The access token the signed-in page holds (the probe's sign-in leaves it in sessionStorage). */
async function tokenOf(page: Page): Promise<string> {
  const token = await page.evaluate(() => {
    for (let index = 0; index < sessionStorage.length; index += 1) {
      const key = sessionStorage.key(index);
      if (key?.startsWith('oidc.user:')) {
        const user = JSON.parse(sessionStorage.getItem(key) ?? '{}') as { access_token?: unknown };
        if (typeof user.access_token === 'string') return user.access_token;
      }
    }
    return null;
  });
  if (!token) throw new Error('no access token in sessionStorage');
  return token;
}

/**
 * One more account with a ledger of exactly `rows` rows, projected from deposits and expenses of its
 * own (benchmark 5's plan, bench/lib/seed.ts), topped up by hand in that account.
 */
async function seedAccount(client: ApiClient, name: string, rows: number): Promise<void> {
  const account = accountSchema.parse(await client.json('POST', ACCOUNTS_PATHS.list, { name, kind: 'SAVINGS' }));
  const plan = planForRows(rows);
  await addSchedules(client, plan, account.id);
  /** An account's ledger call: its path with the account's id in place. */
  const inAccount = (path: string) => path.replace(':id', encodeURIComponent(account.id));
  const countOf = (answer: unknown) => ledgerInfoSchema.parse(answer).ledger?.transactions.length ?? 0;
  let count = countOf(await client.json('POST', inAccount(ACCOUNT_LEDGER_PATHS.create), createLedgerBody(plan)));
  for (; count < rows;) {
    count = countOf(
      await client.json('POST', inAccount(ACCOUNT_LEDGER_PATHS.addTransaction), {
        date: plan.endDate,
        name: `Extra ${count + 1}`,
        type: 'D',
        amount: 12.34,
      }),
    );
  }
  if (count !== rows) throw new Error(`seeded ${count} rows in ${name}, wanted ${rows}`);
}

async function openViewer(browser: Browser, origin: string, accounts: number): Promise<Viewer> {
  const label = `${accounts} ${accounts === 1 ? 'account' : 'accounts'}`;
  const opened = await openLedgerPage(browser, {
    origin,
    rows: ROWS,
    userName: `bench-accounts-${accounts}`,
    layout: TABLE_LAYOUT,
    device: DESKTOP,
  });
  if (accounts > 1) {
    const client = new ApiClient(origin, await tokenOf(opened.page));
    try {
      for (let number = 2; number <= accounts; number += 1) await seedAccount(client, `Account ${number}`, ROWS);
    } finally {
      client.close();
    }
  }
  return { ...opened, label, loads: [], pays: [], answers: [] };
}

async function measurePay(viewer: Viewer): Promise<void> {
  await scrollToPayableRow(viewer.page, TABLE_LAYOUT);
  const { ms, answer } = await clickPayAnswered(viewer.page);
  viewer.pays.push(ms);
  // Chromium fills in the timing once the answer's body has come.
  await answer.finished();
  const { responseEnd } = answer.request().timing();
  if (responseEnd >= 0) viewer.answers.push(responseEnd);
  await settleAfterPay(viewer.page, 150);
}

export async function manyAccounts(build: PrivateBuild, settings: BenchSettings): Promise<BenchResult[]> {
  // A load's own time moves by more than the target's margin from one to the next (113 to 281 ms in
  // one run's seven for the same user), so seven a side let 11a read 1.006 and 1.288 with nothing
  // changed: fifteen a side (decision 0117).
  const rounds = settings.quick ? 3 : 15;
  const paysPerRound = 2;
  return withLeftoverInChromium(build, async (origin, browser) => {
    const one = await openViewer(browser, origin, 1);
    const many = await openViewer(browser, origin, ACCOUNTS);
    // One untimed load each: the browser's cache holds the page's files for every timed one.
    for (const viewer of [one, many]) await loadLedger(viewer.page, origin);
    for (let turn = 0; turn < rounds; turn += 1) {
      for (const viewer of turn % 2 === 0 ? [one, many] : [many, one]) {
        viewer.loads.push(await loadLedger(viewer.page, origin));
        for (let pay = 0; pay < paysPerRound; pay += 1) await measurePay(viewer);
      }
    }
    const notes = (pick: (viewer: Viewer) => number[]) =>
      `${many.label}: ${sampleList(pick(many))}; ${one.label}: ${sampleList(pick(one))}`;
    return [
      result(
        `11a. first view (navigation to ledger painted), ${ACCOUNTS} accounts of ${ROWS} rows vs 1 (median ms)`,
        'ms',
        round(median(many.loads)),
        round(median(one.loads)),
        { atMost: 1.2 },
        notes((viewer) => viewer.loads),
      ),
      result(
        `11b. Pay to Pending Balance painted, ${ACCOUNTS} accounts of ${ROWS} rows vs 1 (median ms)`,
        'ms',
        round(median(many.pays)),
        round(median(one.pays)),
        { atMost: 1.2 },
        `${notes((viewer) => viewer.pays)}; the PATCH answered in (median ms) ${round(median(many.answers))} vs ${round(median(one.answers))}`,
      ),
    ];
  });
}
