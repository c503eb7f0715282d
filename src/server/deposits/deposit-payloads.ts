/** Deposits between dollars on the wire and cents inside: the only place the two meet. */
import type { DepositsInfo } from '../../contract/deposits.js';
import type { DepositInput } from '../../contract/deposit-input.js';
import { centsToDollars, dollarsToCents } from '../../domain/money.js';
import { totalMonthlyDeposits } from '../../domain/schedules.js';
import type { ScheduleList, ScheduleRequest } from '../schedules/schedule-writes.js';
import type { DepositFields, StoredDeposit } from './deposit-repository.js';

export function depositFields(input: DepositInput): ScheduleRequest<DepositFields> {
  return {
    accountId: input.accountId,
    name: input.name,
    type: input.type,
    day: input.day,
    amount: dollarsToCents(input.amount),
    startDate: input.startDate,
    frequency: input.frequency,
  };
}

/**
 * The answer of every deposits call: the caller's deposits and their monthly total. Each names its
 * account only while the caller has more than one (decision 0042): with one, SPEC.md's answer is
 * byte for byte what it was.
 */
export function depositsAnswer({ schedules: deposits, manyAccounts }: ScheduleList<StoredDeposit>): DepositsInfo {
  return {
    deposits: deposits.map(({ amount, accountId, ...deposit }) => ({
      ...deposit,
      amount: centsToDollars(amount),
      ...(manyAccounts && accountId !== null && { accountId }),
    })),
    totalDeposits: centsToDollars(totalMonthlyDeposits(deposits)),
  };
}
