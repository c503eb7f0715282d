/** Deposits between dollars on the wire and cents inside: the only place the two meet. */
import type { DepositsInfo } from '../../contract/deposits.js';
import type { DepositInput } from '../../contract/deposit-input.js';
import { centsToDollars, dollarsToCents } from '../../domain/money.js';
import { totalMonthlyDeposits } from '../../domain/schedules.js';
import type { DepositFields, StoredDeposit } from './deposit-repository.js';

export function depositFields(input: DepositInput): DepositFields {
  return {
    name: input.name,
    type: input.type,
    day: input.day,
    amount: dollarsToCents(input.amount),
    startDate: input.startDate,
    frequency: input.frequency,
  };
}

/** The answer of every deposits call: the caller's deposits and their monthly total. */
export function depositsAnswer(deposits: readonly StoredDeposit[]): DepositsInfo {
  return {
    deposits: deposits.map(({ amount, ...deposit }) => ({ ...deposit, amount: centsToDollars(amount) })),
    totalDeposits: centsToDollars(totalMonthlyDeposits(deposits)),
  };
}
