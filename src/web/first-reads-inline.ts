/**
 * The HTML's own first script (decision 0121): built apart as a classic script and written into
 * index.html's head by the build (scripts/first-reads-inline.ts), so the view's first calls leave as
 * the document is parsed, before the page's modules are fetched and evaluated (issue 35), not after
 * the shared chunk's schemas. The page's script takes the calls from where this one leaves them.
 * Its imports must stay free of zod and React: the build keeps only what these two calls use.
 */
import { leaveEarlyCallsForThePage } from './api/early-calls.js';
import { sendFirstReads } from './first-reads.js';

sendFirstReads();
leaveEarlyCallsForThePage();
