/** What Bank connections says: a connection's name and state, a sync's figures, a bridge account's balance. */
import type { BankSyncAnswer, BankSyncRecord } from '../../../../contract/bank-connections.js';
import type { AccountKind } from '../../../../domain/accounts.js';
import { type Cents, centsToDollars, formatUsd } from '../../../../domain/money.js';
import type { BankConnectionView, BankRemoteAccountView } from '../../../api/bank-calls.js';
import { momentText } from '../settings-words.js';

/**
 * The kinds a bridge account can be linked to as a new account (decision 0085): a credit card needs
 * its closing and due days and who pays it, which Plan's Add Account asks; link it there first.
 */
export const NEW_ACCOUNT_KINDS = ['CHECKING', 'SAVINGS'] as const satisfies readonly AccountKind[];
export type NewAccountKind = (typeof NEW_ACCOUNT_KINDS)[number];

/** A bridge's account as the user knows it: a savings account by its name, else checking. */
export function likelyKind(name: string): NewAccountKind {
  return /saving/i.test(name) ? 'SAVINGS' : 'CHECKING';
}

/** A connection by the banks it reaches ("Simple Bank, Credit Union"), as the bridge names them. */
export function connectionName(connection: BankConnectionView): string {
  const institutions = Array.from(new Set(connection.accounts.map((account) => account.institution.trim()).filter((name) => name !== '')));
  return institutions.length === 0 ? 'SimpleFIN bridge' : institutions.join(', ');
}

/** An account of the bridge as statements name one (decision 0046): "Checking …1234". */
export function remoteAccountName(account: BankRemoteAccountView): string {
  return `${account.name} …${account.last4}`;
}

/** The bridge's balance in its own currency: "$100.50", "€12.00"; a currency code Intl does not know stays a code. */
export function balanceText(balance: Cents | null, currency: string): string {
  if (balance === null) return 'Balance unknown';
  if (currency === 'USD') return formatUsd(balance);
  try {
    return new Intl.NumberFormat('en-US', { style: 'currency', currency }).format(centsToDollars(balance));
  } catch {
    return `${centsToDollars(balance).toFixed(2)} ${currency}`;
  }
}

const plural = (count: number, word: string) => `${count} ${word}${count === 1 ? '' : 's'}`;

/** What a sync did to the ledgers: "2 added, 1 matched, 0 replaced, 0 no longer at the bank". */
export function syncFiguresText(figures: Pick<BankSyncAnswer, 'added' | 'matched' | 'replaced' | 'flagged'>): string {
  return `${figures.added} added, ${figures.matched} matched, ${figures.replaced} replaced, ${figures.flagged} no longer at the bank`;
}

/** Sync now's answer in the connection's live region, its warnings after the figures. */
export function syncAnswerText(answer: BankSyncAnswer): string {
  const warnings = answer.warnings.length === 0 ? '' : ` ${plural(answer.warnings.length, 'warning')}: ${answer.warnings.join(' ')}`;
  return `Synced: ${syncFiguresText(answer)}.${warnings}`;
}

/** The last sync in one line: when, how, and what it did or why it failed (its warnings are listed under it). */
export function lastSyncText(record: BankSyncRecord | null, timeZone: string): string {
  if (record === null) return 'Last sync: not yet.';
  const at = momentText(record.at, timeZone);
  const how = record.trigger === 'now' ? 'Sync now' : 'scheduled';
  const when = at === '' ? how : `${at} (${how})`;
  return record.failure === null ? `Last sync: ${when}: ${syncFiguresText(record)}.` : `Last sync: ${when} failed: ${record.failure}`;
}
