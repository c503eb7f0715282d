/**
 * The GETs a returning tab's first view makes first (issue 35, decision 0073), sent by the HTML's
 * own script as the document is parsed (first-reads-inline.ts, decision 0121), or by the first
 * module when the document sent none (first-reads-now.ts). Its imports stay few: the endpoint table,
 * the clock, the token and the address; nothing of React, the views or a schema, which the HTML's
 * script would carry.
 */
import { ENDPOINTS } from '../contract/common.js';
import { type IsoDate, todayIn } from '../domain/calendar-date.js';
import { endpoint } from './api/api-request.js';
import { firstWindowQuery, sendEarlyCalls } from './api/early-calls.js';
import { storedAccessToken } from './auth/session.js';
import { budgetOfAddress } from './navigation.js';
import { VIEW_PATHS } from './views/view-nav.js';

/** The GET paths each view reads before it can paint; its other reads (names for dialogs, other accounts) wait. */
export function firstReadsOf(address: Pick<Location, 'pathname' | 'search'>, today: IsoDate): readonly string[] {
  switch (address.pathname) {
    case VIEW_PATHS.home:
      return [endpoint('getDeposits').path, endpoint('getExpenses').path, endpoint('getForecast').path];
    case VIEW_PATHS.ledger: {
      // The account the address names (decision 0044), else the primary one at its alias.
      const account = new URLSearchParams(address.search).get('account');
      const ledger = account === null ? endpoint('getLedger').path : ENDPOINTS.getLedger.path.replace(':id', encodeURIComponent(account));
      return [`${ledger}?${firstWindowQuery(today)}`, endpoint('listAccounts').path];
    }
    case VIEW_PATHS.plan:
      return [endpoint('listAccounts').path, endpoint('getDeposits').path, endpoint('getExpenses').path];
    default:
      return [];
  }
}

/** Sends the view's first calls now, when the tab holds a token; the api client takes their answers. */
export function sendFirstReads(address: Pick<Location, 'pathname' | 'search'> = window.location): void {
  const token = storedAccessToken();
  if (token !== undefined) sendEarlyCalls(token, firstReadsOf(address, todayIn(new Date())), undefined, budgetOfAddress(address.search));
}
