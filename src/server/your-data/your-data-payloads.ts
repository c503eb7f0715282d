/** The export document between dollars on the wire and cents inside: the only place the two meet. */
import { type YourDataExport, EXPORT_FORMAT, EXPORT_VERSION, type exportedLedgerSchema } from '../../contract/your-data.js';
import type * as z from 'zod/mini';
import { FIRST_ACCOUNT_NAME } from '../../domain/accounts.js';
import type { LedgerData } from '../ledger/index.js';
import type { RestoredYourData } from '../../contract/your-data-requests.js';
import type { ScheduleKind } from '../../domain/ledger.js';
import { centsToDollars, dollarsToCents } from '../../domain/money.js';
import { byCodeUnits } from '../../domain/names.js';
import type { SpendingSettings, YourData } from './your-data.js';

type ExportedLedger = z.infer<typeof exportedLedgerSchema>;

/** A ledger in an export document, and the deleted schedules its rows still name. */
function exportedLedger(ledger: LedgerData, schedules: ReadonlySet<string>): ExportedLedger {
  const removed = new Map<string, { kind: ScheduleKind; id: string }>();
  for (const { source } of ledger.rows) {
    // A card payment names its card, an account of the document (decision 0045): never a removed schedule.
    if (!source || source.kind === 'card') continue;
    const key = `${source.kind} ${source.id}`;
    if (!schedules.has(key)) removed.set(key, { kind: source.kind, id: source.id });
  }
  return {
    startDate: ledger.fields.startDate,
    endDate: ledger.fields.endDate,
    openingBalance: centsToDollars(ledger.fields.openingBalance),
    nextSequence: ledger.nextSequence,
    transactions: ledger.rows.map((row) => {
      const exported = {
        id: row.id,
        sequence: row.sequence,
        date: row.date,
        name: row.name,
        type: row.type,
        amount: centsToDollars(row.amount),
        status: row.status,
        source: row.source,
      };
      // Only a side of a transfer carries the key, and only a bank row its mark, as in the ledger's
      // answers (decisions 0043 and 0084): other rows are exported as they always were.
      const transfer = row.transfer && { transfer: { id: row.transfer.id, accountId: row.transfer.accountId } };
      const bank = row.bank && {
        bank: {
          account: row.bank.key.account,
          transaction: row.bank.key.transaction,
          state: row.bank.state,
          missingSince: row.bank.missingSince,
        },
      };
      return transfer || bank ? { ...exported, ...transfer, ...bank } : exported;
    }),
    skippedOccurrences: ledger.skipped.map((occurrence) => ({
      kind: occurrence.kind,
      id: occurrence.id,
      occurrence: occurrence.occurrence,
    })),
    importedStatementRows: ledger.imported.map((row) => ({ key: row.key, transactionId: row.transactionId, importedAt: row.importedAt })),
    removedSchedules: [...removed.values()].sort((a, b) => byCodeUnits(a.kind, b.kind) || byCodeUnits(a.id, b.id)),
    ...(ledger.closedBankKeys.length > 0 && {
      closedBankKeys: ledger.closedBankKeys.map(({ key, reason, pending }) => ({
        account: key.account,
        transaction: key.transaction,
        reason,
        pending: pending && { date: pending.date, type: pending.type, amount: centsToDollars(pending.amount) },
      })),
    }),
  };
}

/** The document for what the owner has; `exportedAt` is the only part that is not the data. */
export function exportDocument(data: YourData, exportedAt: Date): YourDataExport {
  const schedules = new Set([
    ...data.deposits.map((deposit) => `deposit ${deposit.id}`),
    ...data.expenses.map((expense) => `expense ${expense.id}`),
  ]);
  return {
    format: EXPORT_FORMAT,
    version: EXPORT_VERSION,
    exportedAt: exportedAt.toISOString(),
    accounts: data.accounts.map((account) => ({
      id: account.id,
      name: account.name,
      kind: account.kind,
      primary: account.primary,
      card: account.card && {
        ...account.card,
        amount: account.card.amount === null ? null : centsToDollars(account.card.amount),
        creditLimit: account.card.creditLimit === null ? null : centsToDollars(account.card.creditLimit),
      },
      createdAt: account.createdAt,
      ledger: account.ledger && exportedLedger(account.ledger, schedules),
      // Only an account a bridge account is linked to carries its links (decision 0086).
      ...(account.bankLinks &&
        account.bankLinks.length > 0 && {
          bankLinks: account.bankLinks.map(({ connectionId, remoteId }) => ({ connectionId, remoteId })),
        }),
    })),
    deposits: data.deposits.map(({ amount, ...deposit }) => ({ ...deposit, amount: centsToDollars(amount) })),
    // toAccountId only on recurring transfers, so exports without them are as before (decision 0043).
    expenses: data.expenses.map(({ amount, toAccountId, ...expense }) => ({
      ...expense,
      amount: centsToDollars(amount),
      ...(toAccountId !== null && { toAccountId }),
    })),
    ...(data.settings && {
      settings: {
        buffer: centsToDollars(data.settings.buffer),
        everydaySpending: data.settings.everyday && {
          weekly: centsToDollars(data.settings.everyday.weekly),
          accountId: data.settings.everyday.accountId,
        },
      },
    }),
  };
}

type RestoredLedger = NonNullable<Extract<RestoredYourData, { version: 1 }>['ledger']>;

function restoredLedger(ledger: RestoredLedger): LedgerData {
  return {
    fields: { startDate: ledger.startDate, endDate: ledger.endDate, openingBalance: dollarsToCents(ledger.openingBalance) },
    nextSequence: ledger.nextSequence,
    rows: ledger.transactions.map((row) => ({
      id: row.id,
      sequence: row.sequence,
      date: row.date,
      name: row.name,
      type: row.type,
      amount: dollarsToCents(row.amount),
      status: row.status,
      source: row.source,
      transfer: row.transfer ?? null,
      bank: row.bank
        ? {
            key: { account: row.bank.account, transaction: row.bank.transaction },
            state: row.bank.state,
            missingSince: row.bank.missingSince,
          }
        : null,
    })),
    skipped: ledger.skippedOccurrences,
    imported: ledger.importedStatementRows,
    closedBankKeys: (ledger.closedBankKeys ?? []).map(({ account, transaction, reason, pending }) => ({
      key: { account, transaction },
      reason,
      pending: pending && { date: pending.date, type: pending.type, amount: dollarsToCents(pending.amount) },
    })),
  };
}

/** The id a version 1 document's one account goes by until a restore gives it a new one, as every id. */
const VERSION_1_ACCOUNT = 'version-1-account';

/**
 * A checked document as data to store; the schema has already refused anything it cannot be. A
 * version 1 document's ledger and schedules are its one account's, the caller's primary account.
 */
export function restoredData(document: RestoredYourData): YourData {
  const accountOf = (requested: string | undefined) => (document.version === 1 ? VERSION_1_ACCOUNT : (requested ?? VERSION_1_ACCOUNT));
  const schedules = {
    deposits: document.deposits.map((deposit) => ({
      id: deposit.id,
      createdAt: deposit.createdAt,
      name: deposit.name,
      type: deposit.type,
      day: deposit.day,
      amount: dollarsToCents(deposit.amount),
      startDate: deposit.startDate,
      frequency: deposit.frequency,
      accountId: accountOf(deposit.accountId),
    })),
    expenses: document.expenses.map((expense) => ({
      id: expense.id,
      createdAt: expense.createdAt,
      name: expense.name,
      type: expense.type,
      frequency: expense.frequency,
      day: expense.day,
      amount: dollarsToCents(expense.amount),
      startDate: expense.startDate,
      endDate: expense.endDate,
      accountId: accountOf(expense.accountId),
      // A version 1 document has one account, so no transfer; its schema refuses none, so it is dropped here.
      toAccountId: document.version === 1 ? null : (expense.toAccountId ?? null),
    })),
  };
  if (document.version === 1) {
    return {
      version1: true,
      accounts: [
        {
          id: VERSION_1_ACCOUNT,
          name: FIRST_ACCOUNT_NAME,
          kind: 'CHECKING',
          primary: true,
          card: null,
          createdAt: new Date(0).toISOString(),
          ledger: document.ledger && restoredLedger(document.ledger),
        },
      ],
      ...schedules,
    };
  }
  return {
    accounts: document.accounts.map((account) => ({
      id: account.id,
      name: account.name,
      kind: account.kind,
      primary: account.primary,
      card: account.card && {
        closingDay: account.card.closingDay,
        dueDay: account.card.dueDay,
        payFromAccountId: account.card.payFromAccountId,
        rule: account.card.rule,
        amount: account.card.amount === undefined || account.card.amount === null ? null : dollarsToCents(account.card.amount),
        creditLimit:
          account.card.creditLimit === undefined || account.card.creditLimit === null ? null : dollarsToCents(account.card.creditLimit),
      },
      createdAt: account.createdAt,
      ledger: account.ledger && restoredLedger(account.ledger),
      ...(account.bankLinks && { bankLinks: account.bankLinks }),
    })),
    ...schedules,
    ...(document.settings && { settings: restoredSettings(document.settings, document.accounts) }),
  };
}

type RestoredSettings = NonNullable<Extract<RestoredYourData, { version: 2 }>['settings']>;

/** The document's settings in cents; everyday spending that names no account comes out of the primary one (the schema made sure there is one). */
function restoredSettings(settings: RestoredSettings, accounts: readonly { id: string; primary: boolean }[]): SpendingSettings {
  const everyday = settings.everydaySpending;
  const primary = accounts.find((account) => account.primary) ?? accounts[0];
  return {
    buffer: dollarsToCents(settings.buffer),
    everyday: everyday && { weekly: dollarsToCents(everyday.weekly), accountId: everyday.accountId ?? primary?.id ?? '' },
  };
}
