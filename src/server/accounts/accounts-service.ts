/**
 * Accounts (issue 25, decision 0042): list, add, rename or make primary, delete. Each write is one
 * unit of work of the ledger's (LedgerWrites), under the owner's lock every ledger and schedule
 * write of theirs takes, so the limits and the one primary account hold whatever runs at once.
 */
import { accountNameKey, type CardSettings } from '../../domain/accounts.js';
import { ConflictError, InvalidInputError, NotFoundError } from '../../domain/errors.js';
import type { ScheduleRef } from '../../domain/ledger.js';
import { checkAccountCount } from '../../domain/limits.js';
import type { Caller } from '../auth/access-token.js';
import type { OpenDatabase } from '../db/database.js';
import { depositRepository } from '../deposits/deposit-repository.js';
import { endTransfersInto, expenseRepository } from '../expenses/expense-repository.js';
import {
  type AccountFields,
  type AccountWithBalances,
  deleteAccountRecord,
  forgetCard,
  insertAccount,
  type LedgerWrite,
  type LedgerWrites,
  listAccounts,
  listAccountsWithBalances,
  makePrimary,
  movePayFrom,
  NO_ACCOUNT,
  projectMoved,
  renameAccount,
  setCardSettings,
  type StoredAccount,
  type WritePlan,
} from '../ledger/index.js';

const NAME_TAKEN = 'Name is already used by another of your accounts.';
const PAY_FROM = 'Pay From must be the id of one of your accounts that is not a card.';
const ONLY_CARDS = 'Only a credit card has card settings.';

/** What PATCH /api/accounts/{id} changes; each part left out stays as it is. */
export interface AccountChange {
  readonly name?: string | undefined;
  readonly primary?: true | undefined;
  /** A card's new settings (decision 0045). */
  readonly card?: CardSettings | undefined;
}

/** Refuses a Pay From that is not one of the owner's accounts, or is a card. */
function checkPayFrom(accounts: readonly StoredAccount[], card: CardSettings): void {
  const payFrom = accounts.find((account) => account.id === card.payFromAccountId);
  if (!payFrom || payFrom.kind === 'CARD') throw new InvalidInputError(PAY_FROM, { 'card.payFromAccountId': PAY_FROM });
}

/** Refuses a name another of the owner's accounts has, in any case. */
function checkNameFree(accounts: readonly StoredAccount[], name: string, except?: string): void {
  const key = accountNameKey(name);
  if (accounts.some((account) => account.id !== except && accountNameKey(account.name) === key)) {
    throw new InvalidInputError(NAME_TAKEN, { name: NAME_TAKEN });
  }
}

/** An account's change is not undoable; the schedules it moves count against the row limit as a schedule's change does. */
const ACCOUNT_CHANGE: WritePlan = { growth: 'schedule', undo: null };

export class AccountsService {
  constructor(
    private readonly database: OpenDatabase,
    /** Every change of an account is one unit of work, with its ledgers' card payments and transfers following. */
    private readonly writes: LedgerWrites,
  ) {}

  private change<Applied, Answer>(
    owner: Caller,
    apply: (locked: LedgerWrite) => Promise<Applied>,
    answer: (locked: LedgerWrite, applied: Applied) => Promise<Answer>,
  ): Promise<Answer> {
    return this.writes.run(owner, ACCOUNT_CHANGE, { apply, answer });
  }

  /**
   * Every account with its balances, oldest first; a user with none gets their primary "Checking" one
   * now. Not a viewer (decision 0095): their read never writes, so they see no account until an owner
   * or an editor makes the first.
   */
  async list(owner: Caller, mayWrite = true): Promise<AccountWithBalances[]> {
    const accounts = await listAccountsWithBalances(this.database.db, owner);
    if (accounts.length > 0 || !mayWrite) return accounts;
    await this.change(
      owner,
      async (locked) => (await locked.account('primary')).id,
      async () => undefined,
    );
    return listAccountsWithBalances(this.database.db, owner);
  }

  /**
   * A new account, without a ledger (its balances are 0 until one is created). A user's first
   * account is their primary one. A card is paid from one of their accounts that is not a card.
   */
  async add(owner: Caller, fields: AccountFields): Promise<AccountWithBalances> {
    return this.change(
      owner,
      async (locked) => {
        const accounts = await listAccounts(locked.db, owner);
        const refusal = checkAccountCount(accounts.length + 1);
        if (refusal) throw refusal;
        checkNameFree(accounts, fields.name);
        if (fields.card) checkPayFrom(accounts, fields.card);
        const account = await insertAccount(locked.db, owner, {
          ...fields,
          primary: accounts.length === 0,
          createdAt: new Date().toISOString(),
        });
        locked.noteActivity({ kind: 'account', verb: 'added', name: account.name });
        return account.id;
      },
      (locked, id) => this.withBalances(locked, id),
    );
  }

  /**
   * Renames the account, makes it the primary one and/or gives a card new settings; a card cannot
   * be primary, and only a card has settings. A card renamed or with new settings has its open
   * payments projected afresh (their name is the card's), from the Pay From it now has (decision 0045).
   */
  async update(owner: Caller, id: string, change: AccountChange) {
    return this.change(
      owner,
      async (locked) => {
        const accounts = await listAccounts(locked.db, owner);
        const account = accounts.find((candidate) => candidate.id === id);
        if (!account) throw new NotFoundError(NO_ACCOUNT);
        if (change.card) {
          if (account.kind !== 'CARD') throw new InvalidInputError(ONLY_CARDS, { card: ONLY_CARDS });
          checkPayFrom(accounts, change.card);
        }
        if (change.primary && !account.primary && account.kind === 'CARD') {
          throw new ConflictError('A credit card cannot be the primary account: make a checking, savings or cash account primary.');
        }
        const renamed = change.name !== undefined && change.name !== account.name;
        if (change.name !== undefined && renamed) {
          checkNameFree(accounts, change.name, id);
          await renameAccount(locked.db, owner, id, change.name);
        }
        if (change.primary && !account.primary) {
          await this.settleSchedules(locked, accounts);
          await makePrimary(locked.db, owner, id);
        }
        if (change.card) await setCardSettings(locked.db, owner, id, change.card);
        if (renamed || change.card || (change.primary && !account.primary)) {
          locked.noteActivity({ kind: 'account', verb: 'changed', name: change.name ?? account.name });
        }
        if (account.card && (renamed || change.card)) {
          locked.includeCards({ cards: [id], formerPayFrom: new Map([[id, account.card.payFromAccountId]]) });
        }
      },
      (locked) => this.withBalances(locked, id),
    );
  }

  /**
   * Deletes the account and its ledger, confirmed by its name. Never the owner's last account,
   * nor their last one that is not a card (the primary account is never a card). When it was
   * primary, the oldest remaining account that is not a card becomes primary. Its deposits and
   * expenses, and the cards it paid, move to the primary account, whose ledger the schedules are
   * projected into from today on. Answers the accounts that remain.
   */
  async remove(owner: Caller, id: string, confirm: string): Promise<AccountWithBalances[]> {
    return this.change(
      owner,
      async (locked) => {
        const accounts = await listAccounts(locked.db, owner);
        const account = accounts.find((candidate) => candidate.id === id);
        if (!account) throw new NotFoundError(NO_ACCOUNT);
        if (confirm.trim() !== account.name) {
          const message = `Type the account's name, ${account.name}, to confirm.`;
          throw new InvalidInputError(message, { confirm: message });
        }
        const remaining = accounts.filter((candidate) => candidate.id !== id);
        if (remaining.length === 0) throw new ConflictError('You cannot delete your only account.');
        const primary = account.primary
          ? remaining.find((candidate) => candidate.kind !== 'CARD')
          : remaining.find((candidate) => candidate.primary);
        if (!primary) throw new ConflictError('Keep at least one account that is not a credit card: cards are paid from one.');

        await this.settleSchedules(locked, accounts);
        await endTransfersInto(locked.db, owner, id);
        const before = await locked.schedules();
        const today = await locked.today();
        // A card's open payments go with it; those that stand become ordinary rows where they are (decision 0045).
        if (account.kind === 'CARD') await forgetCard(locked, account, today);
        const deleted = await locked.store({ id });
        // Its transfers' other sides stay in their accounts as ordinary rows (decision 0043).
        await deleted.unlinkOtherSides();
        await deleted.deleteAll();
        await deleteAccountRecord(locked.db, owner, id);
        locked.noteActivity({ kind: 'account', verb: 'deleted', name: account.name });
        if (account.primary) await makePrimary(locked.db, owner, primary.id);
        await movePayFrom(locked.db, owner, id, primary.id);
        const moved: ScheduleRef[] = [
          ...(await depositRepository(locked.db).moveAll(owner, id, primary.id)).map((scheduleId) => ({
            kind: 'deposit' as const,
            id: scheduleId,
          })),
          ...(await expenseRepository(locked.db).moveAll(owner, id, primary.id)).map((scheduleId) => ({
            kind: 'expense' as const,
            id: scheduleId,
          })),
        ];
        // An expense moved into the account it paid into is an ordinary bill there.
        await endTransfersInto(locked.db, owner, id);
        await projectMoved(locked, primary.id, moved, before, await locked.schedules());
        // The cards it paid are paid from the primary account now: their open payments move there.
        locked.includeCards({ cards: accounts.filter((candidate) => candidate.card?.payFromAccountId === id).map((card) => card.id) });
      },
      (locked) => listAccountsWithBalances(locked.db, owner),
    );
  }

  /** Schedules stored without an account stay in the primary one as it is now, before it changes. */
  private async settleSchedules(locked: LedgerWrite, accounts: readonly StoredAccount[]): Promise<void> {
    const primary = accounts.find((account) => account.primary);
    if (!primary) return;
    await depositRepository(locked.db).settleAccounts(locked.owner, primary.id);
    await expenseRepository(locked.db).settleAccounts(locked.owner, primary.id);
  }

  private async withBalances(locked: LedgerWrite, id: string): Promise<AccountWithBalances> {
    const found = (await listAccountsWithBalances(locked.db, locked.owner)).find((account) => account.id === id);
    if (!found) throw new Error('an account just written is not there');
    return found;
  }
}
