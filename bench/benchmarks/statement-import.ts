/**
 * Benchmark 8, bank statements in (issue 14). On one server, a user with a 5-year ledger of about
 * 2,000 rows and a 2,000-row CSV statement of the same years: half its rows are ledger rows the bank
 * posted a day late (to be matched), half are card purchases the ledger does not know (to be added).
 *  - POST statements/preview (read the file, load the ledger and what it imported, match) against
 *    GET of the same ledger;
 *  - POST statements/import (the same under the ledger lock, then clear 1,000 rows, add 1,000 and
 *    record 2,000 import ids, in one durable transaction, answering the grown ledger) against GET
 *    of the ledger it was imported into. Each import sample first replaces the ledger (create),
 *    which also forgets the previous import, so every sample imports the whole file afresh.
 * Requests run one at a time, alternating, and the figures are medians.
 */
import fs from 'node:fs';
import { type Ledger, LEDGER_PATHS, ledgerInfoSchema } from '../../src/contract/ledger.js';
import { STATEMENT_PATHS, statementImportSchema, statementPreviewSchema } from '../../src/contract/statements.js';
import { addDays, isoDate } from '../../src/domain/calendar-date.js';
import type { PrivateBuild } from '../lib/build.js';
import type { ApiClient } from '../lib/http-client.js';
import { type BenchResult, result } from '../lib/report.js';
import { createLedgerBody, planForRows, seedSchedulesAndLedger, signIn } from '../lib/seed.js';
import { newDataDir, startLeftover } from '../lib/server-process.js';
import type { BenchSettings } from '../lib/settings.js';
import { median, round } from '../lib/stats.js';

const LEDGER_ROWS = 2000;
const STATEMENT_ROWS = 2000;

async function timed(client: ApiClient, method: string, path: string, body?: unknown): Promise<{ ms: number; body: string }> {
  const response = await client.request(method, path, body);
  if (response.status !== 200) throw new Error(`${method} ${path} answered ${response.status}: ${response.body.slice(0, 300)}`);
  return { ms: response.ms, body: response.body };
}

/**
 * Every other ledger row as the bank posts it a day later (within the ledger), then card purchases
 * of a few dollars, an amount no ledger row has, on the days in between.
 */
function statementFor(ledger: Ledger): string {
  const lines = ['Date,Description,Amount'];
  const rows = ledger.transactions.filter((_row, index) => index % 2 === 0).slice(0, STATEMENT_ROWS / 2);
  for (const row of rows) {
    const next = addDays(isoDate(row.date), 1);
    const date = next <= ledger.endDate ? next : row.date;
    lines.push(`${date},${row.name.toUpperCase()} PPD,${row.type === 'D' ? '-' : ''}${row.amount.toFixed(2)}`);
  }
  for (let index = 0; lines.length <= STATEMENT_ROWS; index += 1) {
    const date = addDays(isoDate(ledger.startDate), index % 1800);
    lines.push(`${date},"CARD PURCHASE ${index + 1}, SPRINGFIELD IL",-${(1 + (index % 900) / 100).toFixed(2)}`);
  }
  return `${lines.join('\n')}\n`;
}

export async function statementImport(build: PrivateBuild, settings: BenchSettings): Promise<BenchResult[]> {
  const dataDir = newDataDir();
  const server = await startLeftover(build, dataDir);
  const client = await signIn(server.origin, 'bench-statements');
  try {
    const plan = planForRows(LEDGER_ROWS);
    const ledger = await seedSchedulesAndLedger(client, plan);
    const body = { fileName: 'statement.csv', content: statementFor(ledger) };

    const previewSamples = settings.quick ? 10 : 40;
    const warmup = 3;
    const previews: number[] = [];
    const previewReads: number[] = [];
    for (let index = 0; index < previewSamples + warmup; index += 1) {
      const preview = await timed(client, 'POST', STATEMENT_PATHS.preview, body);
      const read = await timed(client, 'GET', LEDGER_PATHS.retrieve);
      if (index === 0) {
        const actions = statementPreviewSchema.parse(JSON.parse(preview.body)).rows.map((row) => row.action);
        const matched = actions.filter((action) => action === 'match').length;
        if (actions.length !== STATEMENT_ROWS || matched < (STATEMENT_ROWS / 2) * 0.9) {
          throw new Error(`the statement previews ${actions.length} rows, ${matched} matched: not what this benchmark measures`);
        }
      }
      if (index < warmup) continue;
      previews.push(preview.ms);
      previewReads.push(read.ms);
    }

    const importSamples = settings.quick ? 5 : 20;
    const imports: number[] = [];
    const importReads: number[] = [];
    let counts = '';
    for (let index = 0; index < importSamples + warmup; index += 1) {
      // A fresh ledger of the same rows, with nothing imported yet: the import does all its work every time.
      const fresh = ledgerInfoSchema.parse(await client.json('POST', LEDGER_PATHS.create, createLedgerBody(plan)));
      if (fresh.ledger?.transactions.length !== ledger.transactions.length) throw new Error('the replaced ledger differs');
      const read = await timed(client, 'GET', LEDGER_PATHS.retrieve);
      const imported = await timed(client, 'POST', STATEMENT_PATHS.import, body);
      if (index === 0) counts = JSON.stringify(statementImportSchema.parse(JSON.parse(imported.body)).imported);
      if (index < warmup) continue;
      imports.push(imported.ms);
      importReads.push(read.ms);
    }

    const rows = `${STATEMENT_ROWS}-row CSV vs GET of the ${ledger.transactions.length}-row ledger (median ms)`;
    return [
      result(
        `8a. statement preview, ${rows}`,
        'ms',
        round(median(previews)),
        round(median(previewReads)),
        { atMost: 3 },
        `${previewSamples} pairs`,
      ),
      result(
        `8b. statement import, ${rows}`,
        'ms',
        round(median(imports)),
        round(median(importReads)),
        { atMost: 5 },
        `${importSamples} pairs, each into a freshly replaced ledger; imported ${counts}`,
      ),
    ];
  } finally {
    client.close();
    await server.stop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}
