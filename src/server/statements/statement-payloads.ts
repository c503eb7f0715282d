/** Statements between cents inside and dollars on the wire: the only place the two meet for them. */
import type { ImportDecision } from '../../contract/statement-requests.js';
import type { ReconciliationInfo, StatementImport, StatementPreview } from '../../contract/statements.js';
import { centsToDollars } from '../../domain/money.js';
import type { Reconciliation } from '../../domain/statements/reconciliation.js';
import type { Decision } from '../../domain/statements/statement-matching.js';
import type { BankBalance } from '../../domain/statements/statement-row.js';
import { ledgerAnswer } from '../ledger/index.js';
import type { StatementImportResult, StatementPreviewResult } from './statement-service.js';

export function importDecisions(decisions: readonly ImportDecision[] | undefined): Decision[] {
  return (decisions ?? []).map(({ index, action, matchId }) => (matchId === undefined ? { index, action } : { index, action, matchId }));
}

function bankAnswer(bank: BankBalance | null): StatementPreview['bank'] {
  return bank && { balance: centsToDollars(bank.balance), date: bank.date };
}

function reconciliationAnswer(reconciliation: Reconciliation | null): ReconciliationInfo | null {
  return (
    reconciliation && {
      bankBalance: centsToDollars(reconciliation.bankBalance),
      date: reconciliation.date,
      leftover: centsToDollars(reconciliation.leftover),
      difference: centsToDollars(reconciliation.difference),
    }
  );
}

export function previewAnswer({ file, proposals, reconciliation, fileAccount }: StatementPreviewResult): StatementPreview {
  const proposalByIndex = new Map(proposals.map((proposal) => [proposal.index, proposal]));
  return {
    format: file.format,
    needsMapping: file.needsMapping,
    ...(file.columns && { columns: { count: file.columns.count, firstRows: file.columns.firstRows.map((cells) => [...cells]) } }),
    rows: file.rows.map((row) => {
      const proposal = proposalByIndex.get(row.index);
      if (!proposal) throw new Error(`no proposal for statement row ${row.index}`);
      return {
        index: row.index,
        date: row.date,
        description: row.description,
        type: row.type,
        amount: centsToDollars(row.amount),
        action: proposal.action,
        ...(proposal.matchId === undefined ? {} : { matchId: proposal.matchId }),
      };
    }),
    bank: bankAnswer(file.bank),
    reconciliation: reconciliationAnswer(reconciliation),
    ...(fileAccount && { fileAccount: { ending: fileAccount.ending, accountId: fileAccount.accountId } }),
  };
}

export function importAnswer({ ledger, counts, bank, reconciliation }: StatementImportResult): StatementImport {
  return { ...ledgerAnswer(ledger), imported: { ...counts }, bank: bankAnswer(bank), reconciliation: reconciliationAnswer(reconciliation) };
}
