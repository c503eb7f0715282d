/**
 * Which account a deposit lands in or an expense is paid from (issue 25, decision 0044). Shown only
 * when there is a choice: with one account every schedule is in it, and the page stays as it was.
 * The dialogs' selects are in account-field.tsx: the tables read this file before the first paint, the
 * forms only after it (decision 0073).
 */

/** An account as a schedule's dialog and table name it. */
export interface ScheduleAccount {
  readonly id: string;
  readonly name: string;
  readonly primary: boolean;
}

/** The accounts to choose from, or undefined when there is no choice to make (one account, or not loaded). */
export function accountChoices(accounts: readonly ScheduleAccount[] | null | undefined): readonly ScheduleAccount[] | undefined {
  return accounts && accounts.length > 1 ? accounts : undefined;
}

/** A schedule's account: the one it names, or the primary one (an answer names none while there is one account). */
export function scheduleAccountId(accounts: readonly ScheduleAccount[], accountId: string | undefined): string {
  return accountId ?? accounts.find((account) => account.primary)?.id ?? '';
}

/** The name of a schedule's account, as its table's Account column shows it. */
export function scheduleAccountName(accounts: readonly ScheduleAccount[], accountId: string | undefined): string {
  const id = scheduleAccountId(accounts, accountId);
  return accounts.find((account) => account.id === id)?.name ?? '';
}
