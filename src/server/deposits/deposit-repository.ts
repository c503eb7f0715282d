/** Deposits as rows: what sets them apart from expenses; the shared storage is ScheduleRepository. */
import type { Deposit } from '../../contract/deposits.js';
import { isoDate } from '../../domain/calendar-date.js';
import { cents } from '../../domain/money.js';
import { compareNames } from '../../domain/names.js';
import { DEPOSIT_DAYS, DEPOSIT_TYPES, type DepositSchedule, FREQUENCIES } from '../../domain/schedules.js';
import type { Database } from '../db/database.js';
import { storedValue } from '../db/stored-value.js';
import { byCodeUnits } from '../../domain/names.js';
import { type ScheduleRecord, ScheduleRepository, type ScheduleTable } from '../schedules/schedule-repository.js';

/** A deposit in server units (cents, a calendar date), so the schedule functions take it as is. */
export type StoredDeposit = Omit<Deposit, 'amount' | 'startDate' | 'accountId'> &
  DepositSchedule & {
    /** Null only while the owner has no account yet (a row written by hand): see ScheduleRepository's select. */
    readonly accountId: string | null;
  };

/** A deposit as the caller adds or changes it, in the account the write chose. */
export type DepositFields = Omit<StoredDeposit, 'id' | 'accountId'> & { readonly accountId: string };

type DepositRecord = ScheduleRecord<'deposits'>;

function toStoredDeposit(record: DepositRecord): StoredDeposit {
  return {
    id: record.id,
    name: record.name,
    type: storedValue(DEPOSIT_TYPES, record.type, 'deposits.type'),
    day: storedValue(DEPOSIT_DAYS, record.day, 'deposits.day'),
    amount: cents(record.amount_cents),
    startDate: isoDate(record.start_date),
    frequency: storedValue(FREQUENCIES, record.frequency, 'deposits.frequency'),
    accountId: record.account_id,
  };
}

/** The table as the repository reads and writes it. */
const DEPOSITS: ScheduleTable<'deposits', StoredDeposit, DepositFields> = {
  name: 'deposits',
  columns: ['id', 'account_id', 'name', 'type', 'day', 'amount_cents', 'start_date', 'frequency', 'created_at'],
  toStored: toStoredDeposit,
  toColumns: (deposit) => ({
    name: deposit.name,
    type: deposit.type,
    day: deposit.day,
    amount_cents: deposit.amount,
    start_date: deposit.startDate,
    frequency: deposit.frequency,
    account_id: deposit.accountId,
  }),
  // Start date, then name, then creation order (the id only breaks exact ties).
  compare: (a, b) =>
    byCodeUnits(a.start_date, b.start_date) ||
    compareNames(a.name, b.name) ||
    byCodeUnits(a.created_at, b.created_at) ||
    byCodeUnits(a.id, b.id),
  notFound: 'That deposit does not exist.',
};

export type DepositRepository = ScheduleRepository<'deposits', StoredDeposit, DepositFields>;

export function depositRepository(db: Database): DepositRepository {
  return new ScheduleRepository(db, DEPOSITS);
}
