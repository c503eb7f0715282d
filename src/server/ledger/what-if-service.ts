/**
 * "Can I afford it?" and the everyday spending suggestion (issue 36, decisions 0075 and 0076): reads
 * of the caller's ledgers that store nothing (no row, no version, no undo entry, no notification).
 * The forecast's own outlook (domain/safe-to-spend.ts) is what they weigh with.
 */
import type { EverydaySuggestion, WhatIfAnswer } from '../../contract/what-if.js';
import type { WhatIfRequest } from '../../contract/what-if-requests.js';
import { isoDate } from '../../domain/calendar-date.js';
import { InvalidInputError, NotFoundError } from '../../domain/errors.js';
import { everydayHistory } from '../../domain/everyday-spending.js';
import { centsToDollars, dollarsToCents } from '../../domain/money.js';
import { PURCHASE_NAME, type Purchase, whatIf } from '../../domain/what-if.js';
import type { Caller } from '../auth/access-token.js';
import type { OpenDatabase } from '../db/database.js';
import { type AccountChoice, NO_ACCOUNT, NO_LEDGER, readAccount, readAccountLedger } from './ledger-store.js';
import { forecastRows } from './card-everyday-reads.js';
import { everydayWeeklyOf, type OutlookReader } from './outlook.js';
import { outlookAnswer } from './ledger-payloads.js';

/** What a read answers, and how many ledger rows it read (the call is charged as a forecast read is). */
export interface CountedRead<Answer> {
  readonly answer: Answer;
  readonly rowsRead: number;
}

const FIELDS_MESSAGE = 'Some fields need attention.';

export class WhatIfService {
  constructor(
    private readonly database: OpenDatabase,
    private readonly outlookOf: OutlookReader,
  ) {}

  async whatIf(owner: Caller, request: WhatIfRequest): Promise<CountedRead<WhatIfAnswer>> {
    const settings = await this.outlookOf(this.database.db, owner);
    const { today } = settings;
    // The accounts in the order the items first name them; each read once.
    const groups = new Map<string, { choice: AccountChoice; items: { index: number; purchase: Purchase }[] }>();
    request.items.forEach((item, index) => {
      const key = item.accountId ?? '';
      const group = groups.get(key) ?? { choice: item.accountId === undefined ? 'primary' : { id: item.accountId }, items: [] };
      group.items.push({
        index,
        purchase: { date: isoDate(item.date), amount: dollarsToCents(item.amount), name: item.name ?? PURCHASE_NAME },
      });
      groups.set(key, group);
    });
    const reads = [];
    for (const group of groups.values()) {
      // Another user's account is a missing one: 404, as everywhere (readAccount).
      const account = await readAccount(this.database, owner, group.choice);
      if (!account) throw new NotFoundError(NO_ACCOUNT);
      reads.push({ group, read: await readAccountLedger(this.database, owner, { id: account.id }) });
    }
    const fields: Record<string, string> = {};
    for (const { group, read } of reads) {
      for (const { index, purchase } of group.items) {
        const field = `items.${index}.date`;
        if (!read) fields[field] = NO_LEDGER;
        else if (purchase.date < today) fields[field] = `Date must be today (${today}) or later.`;
        else if (purchase.date < read.found.ledger.startDate || purchase.date > read.found.ledger.endDate) {
          fields[field] = `Date must fall within the ledger, ${read.found.ledger.startDate} to ${read.found.ledger.endDate}.`;
        }
      }
    }
    if (Object.keys(fields).length > 0) throw new InvalidInputError(FIELDS_MESSAGE, fields);
    let rowsRead = 0;
    const weighed = [];
    for (const { group, read } of reads) {
      if (!read) continue;
      // Everyday spending on a card is in its statement payments, on both sides (decision 0101).
      const counted = await forecastRows(this.database, owner, settings, read.account, read.found);
      rowsRead += read.found.rows.length + counted.otherRowsRead;
      weighed.push({ group, read, rows: counted.rows });
    }
    const accounts = weighed.map(({ group, read, rows }) => {
      const { ledger } = read.found;
      const asked = whatIf({
        ledger,
        rows,
        today,
        buffer: settings.buffer,
        everydayWeekly: everydayWeeklyOf(settings, read.account.id),
        purchases: group.items.map(({ purchase }) => purchase),
      });
      const lowest = asked.lowestBeforePayday;
      return {
        accountId: read.account.id,
        before: outlookAnswer(asked.before),
        after: outlookAnswer(asked.after),
        lowestBeforePayday: {
          date: lowest.date,
          name: lowest.name,
          balance: centsToDollars(lowest.balance),
          until: lowest.until,
          untilReason: lowest.untilReason,
        },
        affordable: asked.affordable,
      };
    });
    return { answer: { accounts }, rowsRead };
  }

  async everydaySuggestion(owner: Caller, accountId: string | undefined): Promise<CountedRead<EverydaySuggestion>> {
    const settings = await this.outlookOf(this.database.db, owner);
    const account = await readAccount(this.database, owner, accountId === undefined ? 'primary' : { id: accountId });
    if (!account) throw new NotFoundError(NO_LEDGER);
    const read = await readAccountLedger(this.database, owner, { id: account.id });
    if (!read) throw new NotFoundError(NO_LEDGER);
    const history = everydayHistory(read.found.ledger.startDate, read.found.rows, settings.today);
    return {
      answer: {
        accountId: account.id,
        weeks: history.weeks.map((week) => ({ startDate: week.startDate, total: centsToDollars(week.total) })),
        suggestion: history.suggestion === null ? null : centsToDollars(history.suggestion),
      },
      rowsRead: read.found.rows.length,
    };
  }
}
