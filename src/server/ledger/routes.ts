/**
 * The ledger calls under /api/ledger (the primary account's ledger) and /api/accounts/:id/ledger
 * (any of the caller's accounts, decision 0042). Thin: the contract's schemas check the bodies and the
 * answers, the caller comes from the token, the payloads turn dollars into cents and back, and
 * LedgerService does the work in one transaction. Every write takes an optional If-Match: with a
 * version the ledger is no longer at, it answers 412 and changes nothing. The schedules a ledger is
 * projected from are passed in by the app (a ScheduleReader): the ledger imports neither deposits
 * nor expenses.
 */
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { CreateLedgerRequest, ExtendLedgerRequest, NewTransaction, TransactionUpdate } from '../../contract/ledger-requests.js';
import { callerOf, chargeRowsRead, chargeRowsWritten } from '../http/api-scope.js';
import { registerEndpoint, registerLedgerEndpoint } from '../http/endpoint-route.js';
import { tagUndo } from '../http/undo-header.js';
import { NotFoundError } from '../../domain/errors.js';
import { dollarsToCents } from '../../domain/money.js';
import { asksForWindow, type LedgerWindowQuery } from '../../contract/ledger-window.js';
import {
  changesAnswer,
  forecastAnswer,
  ledgerAnswer,
  ledgerFields,
  requestedRow,
  transactionDraft,
  windowAnswer,
} from './ledger-payloads.js';
import {
  type AccountChoice,
  everydayWeeklyOf,
  forecastRows,
  type LedgerWithRows,
  NO_LEDGER,
  readAccount,
  readAccountLedger,
} from './index.js';
import type { CreateElsewhere } from './big-create.js';
import { type LedgerRowWrite, LedgerService, type RowWriteAnswer } from './ledger-service.js';
import { expectedVersionOf, sendLedgerText, tagLedgerVersion } from './ledger-version-header.js';
import { WhatIfService } from './what-if-service.js';

/** The whole ledger, its version in the ETag header (decision 0030). */
function versionedLedgerAnswer(reply: FastifyReply, found: LedgerWithRows | undefined) {
  tagLedgerVersion(reply, found);
  return ledgerAnswer(found);
}

/**
 * A write of one row answers the whole ledger, or only its changes when asked (decision 0030), and
 * names the token that undoes it when it changed something (decision 0040).
 */
type AnswerQuery = { readonly answer?: 'ledger' | 'changes' | undefined };

/** The answer the query asks for, which the write then works out in its transaction. */
function answerAsked(query: AnswerQuery): RowWriteAnswer {
  return query.answer === 'changes' ? 'changes' : 'ledger';
}

function rowWriteAnswer(reply: FastifyReply, write: LedgerRowWrite) {
  tagLedgerVersion(reply, write);
  tagUndo(reply, write.undo);
  const { written } = write;
  return 'placement' in written ? changesAnswer(write, written.placement) : ledgerAnswer({ ledger: write.ledger, rows: written.rows });
}

export interface LedgerRoutesOptions {
  /** Where a big create runs: the big writes' thread (decision 0123). */
  readonly createElsewhere?: CreateElsewhere;
}

export const ledgerRoutes: FastifyPluginAsyncZod<LedgerRoutesOptions> = async (api, { createElsewhere }) => {
  const ledgers = new LedgerService(api.database, api.ledgerWrites, createElsewhere);

  // Each call once, for the account it is given: the one /api/accounts/:id/ledger names, or the
  // primary one at SPEC.md's /api/ledger alias (decisions 0042, 0059).
  // With a window asked for (decision 0053), the rows from `from` with what the page shows around
  // them; the work is every row of the ledger all the same, so the call is charged for the rows read.
  const retrieve = async (request: FastifyRequest, reply: FastifyReply, account: AccountChoice, query: LedgerWindowQuery) => {
    const owner = callerOf(request);
    const found = await ledgers.retrieve(owner, account);
    if (found === undefined || !asksForWindow(query)) return versionedLedgerAnswer(reply, found);
    tagLedgerVersion(reply, found);
    chargeRowsRead(request, found.rows.length);
    // "Ahead" (the warning, the pay period lines) starts at the caller's own today (decision 0047),
    // and counts everyday spending when it comes out of this account (issue 36), as the forecast does.
    const settings = await api.outlookOf(api.database.db, owner);
    const shown = settings.everyday === null ? undefined : await readAccount(api.database, owner, account);
    // Everyday spending on a card is in its statement payments, on both sides (decision 0101).
    const counted = shown && (await forecastRows(api.database, owner, settings, shown, found));
    chargeRowsRead(request, counted?.otherRowsRead);
    return windowAnswer(found, query, settings.today, shown ? everydayWeeklyOf(settings, shown.id) : undefined, counted);
  };

  const forecast = async (request: FastifyRequest, account: AccountChoice) => {
    const owner = callerOf(request);
    const read = await readAccountLedger(api.database, owner, account);
    if (!read) throw new NotFoundError(NO_LEDGER);
    // "Ahead" starts at the caller's own today (decision 0047); safe to spend keeps their buffer back (issue 36).
    const settings = await api.outlookOf(api.database.db, owner);
    // Everyday spending on a card is in its statement payments, on both sides (decision 0101).
    const counted = await forecastRows(api.database, owner, settings, read.account, read.found);
    // The answer is small, but the work is every row of the ledger (and the card's): charged by the rows read.
    chargeRowsRead(request, read.found.rows.length + counted.otherRowsRead);
    return forecastAnswer(read.found, settings, read, counted.rows);
  };

  const create = async (request: FastifyRequest, reply: FastifyReply, account: AccountChoice, body: CreateLedgerRequest) => {
    const created = await ledgers.create(callerOf(request), account, ledgerFields(body.ledger), expectedVersionOf(request));
    chargeRowsWritten(request, created.written);
    // A big create was written and checked against this answer's schema in the big writes' thread (decision 0123).
    if ('answer' in created) return sendLedgerText(request, reply, created);
    return versionedLedgerAnswer(reply, created);
  };

  const extend = async (request: FastifyRequest, reply: FastifyReply, account: AccountChoice, body: ExtendLedgerRequest) => {
    const extended = await ledgers.extend(callerOf(request), account, body.endDate, expectedVersionOf(request));
    chargeRowsWritten(request, extended.written);
    tagUndo(reply, extended.undo);
    return versionedLedgerAnswer(reply, extended);
  };

  const add = async (request: FastifyRequest, reply: FastifyReply, account: AccountChoice, body: NewTransaction, query: AnswerQuery) =>
    rowWriteAnswer(
      reply,
      await ledgers.addTransaction(callerOf(request), account, transactionDraft(body), expectedVersionOf(request), answerAsked(query)),
    );

  const update = async (
    request: FastifyRequest,
    reply: FastifyReply,
    account: AccountChoice,
    body: TransactionUpdate,
    query: AnswerQuery,
  ) =>
    rowWriteAnswer(
      reply,
      await ledgers.updateTransaction(
        callerOf(request),
        account,
        body.id,
        requestedRow(body),
        expectedVersionOf(request),
        answerAsked(query),
      ),
    );

  const remove = async (request: FastifyRequest, reply: FastifyReply, account: AccountChoice, id: string, query: AnswerQuery) =>
    rowWriteAnswer(reply, await ledgers.deleteTransaction(callerOf(request), account, id, expectedVersionOf(request), answerAsked(query)));

  registerLedgerEndpoint(api, 'getLedger', async (request, reply, account) => retrieve(request, reply, account, request.query));
  registerLedgerEndpoint(api, 'getForecast', async (request, _reply, account) => forecast(request, account));
  registerLedgerEndpoint(api, 'createLedger', async (request, reply, account) => create(request, reply, account, request.body));
  registerLedgerEndpoint(api, 'extendLedger', async (request, reply, account) => extend(request, reply, account, request.body));
  registerLedgerEndpoint(api, 'addTransaction', async (request, reply, account) =>
    add(request, reply, account, request.body, request.query),
  );
  registerLedgerEndpoint(api, 'updateTransaction', async (request, reply, account) =>
    update(request, reply, account, request.body, request.query),
  );
  registerLedgerEndpoint(api, 'deleteTransaction', async (request, reply, account) =>
    remove(request, reply, account, request.params.transaction, request.query),
  );

  // Can I afford it? and the everyday spending suggestion (issue 36): reads that store nothing, each
  // charged for the ledger rows it read, as a forecast read is.
  const whatIfs = new WhatIfService(api.database, api.outlookOf);
  registerEndpoint(api, 'whatIf', async (request) => {
    const { answer, rowsRead } = await whatIfs.whatIf(callerOf(request), request.body);
    chargeRowsRead(request, rowsRead);
    return answer;
  });
  registerEndpoint(api, 'getEverydaySuggestion', async (request) => {
    const { answer, rowsRead } = await whatIfs.everydaySuggestion(callerOf(request), request.query.accountId);
    chargeRowsRead(request, rowsRead);
    return answer;
  });

  // A transfer writes two accounts' ledgers and answers From's (decision 0043).
  registerEndpoint(api, 'addTransfer', async (request, reply) => {
    const { fromAccountId, toAccountId, date, amount, name } = request.body;
    const written = await ledgers.addTransfer(
      callerOf(request),
      { fromAccountId, toAccountId, date, amount: dollarsToCents(amount), name },
      expectedVersionOf(request),
    );
    tagUndo(reply, written.undo);
    return versionedLedgerAnswer(reply, written);
  });
};
