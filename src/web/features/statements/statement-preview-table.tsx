/**
 * The preview: one line per statement row with what will happen to it. A row the server proposes
 * to match or add has a select to change that; a row imported before or outside the ledger is
 * skipped and says so. Descriptions are the bank's text, shown as text (React escapes it).
 */
import { useMemo } from 'react';
import { Form } from 'react-bootstrap';
import type { LedgerTransactionView } from '../../../contract/codecs.js';
import type { StatementRowView } from '../../../contract/statement-codecs.js';
import { formatDate } from '../../../domain/calendar-date.js';
import { signedAmount } from '../../../domain/ledger.js';
import { cents, formatUsd } from '../../../domain/money.js';
import type { FieldErrors } from '../../components/field-errors.js';
import { choicesFor, choiceText, effectiveChoice, fixedActionText, matchedBy, type RowChoice } from './statement-choices.js';

interface StatementPreviewTableProps {
  readonly idPrefix: string;
  readonly rows: readonly StatementRowView[];
  readonly changes: ReadonlyMap<number, RowChoice>;
  readonly onChoose: (index: number, choice: RowChoice) => void;
  readonly ledgerRows: ReadonlyMap<string, LedgerTransactionView>;
  readonly candidatesOf: (row: StatementRowView) => LedgerTransactionView[];
  /** Keyed `row.{index}`: the server's refusal of a decision. */
  readonly errors: FieldErrors;
  readonly disabled: boolean;
}

const COUNT_FORMAT = new Intl.NumberFormat('en-US');

export function StatementPreviewTable({
  idPrefix,
  rows,
  changes,
  onChoose,
  ledgerRows,
  candidatesOf,
  errors,
  disabled,
}: StatementPreviewTableProps) {
  const owners = useMemo(() => matchedBy(rows, changes), [rows, changes]);
  if (rows.length === 0) return <p className="mb-0">The statement has no transactions.</p>;
  return (
    <>
      <p className="small text-body-secondary mb-2">{summaryOf(rows, changes)}</p>
      <div className="table-responsive statement-preview">
        <table className="table table-sm align-middle mb-0">
          <caption className="visually-hidden">Statement rows and what importing does with each</caption>
          <thead>
            <tr>
              <th scope="col">Date</th>
              <th scope="col">Description</th>
              <th scope="col" className="text-end">
                Amount
              </th>
              <th scope="col">What happens</th>
            </tr>
          </thead>
          <tbody>
            {rows.map((row) => {
              const choice = effectiveChoice(row, changes);
              const error = errors[`row.${row.index}`];
              const errorId = `${idPrefix}-row-${row.index}-error`;
              return (
                <tr key={row.index}>
                  <td className="text-nowrap">
                    <time dateTime={row.date}>{formatDate(row.date)}</time>
                  </td>
                  <td className="text-break">
                    <bdi>{row.description}</bdi>
                  </td>
                  <td className="text-end text-nowrap">{formatUsd(cents(signedAmount(row)))}</td>
                  <td>
                    {choice === null ? (
                      fixedActionText(row)
                    ) : (
                      <>
                        <Form.Select
                          size="sm"
                          aria-label={`What happens to ${row.description} on ${formatDate(row.date)}`}
                          value={choice}
                          disabled={disabled}
                          isInvalid={error !== undefined}
                          aria-invalid={error !== undefined ? true : undefined}
                          aria-describedby={error !== undefined ? errorId : undefined}
                          onChange={(event) => onChoose(row.index, event.target.value as RowChoice)}
                        >
                          {choicesFor(row, choice, candidatesOf(row), owners).map((option) => (
                            <option key={option} value={option}>
                              {choiceText(option, ledgerRows)}
                            </option>
                          ))}
                        </Form.Select>
                        {error !== undefined && (
                          <Form.Control.Feedback type="invalid" id={errorId} className="d-block">
                            {error}
                          </Form.Control.Feedback>
                        )}
                      </>
                    )}
                  </td>
                </tr>
              );
            })}
          </tbody>
        </table>
      </div>
    </>
  );
}

/** "8 rows: 4 matched, 4 new, 0 skipped." */
function summaryOf(rows: readonly StatementRowView[], changes: ReadonlyMap<number, RowChoice>): string {
  let matched = 0;
  let added = 0;
  for (const row of rows) {
    const choice = effectiveChoice(row, changes);
    if (choice === 'new') added += 1;
    else if (choice?.startsWith('match:')) matched += 1;
  }
  const skipped = rows.length - matched - added;
  const count = (n: number) => COUNT_FORMAT.format(n);
  return `${count(rows.length)} ${rows.length === 1 ? 'row' : 'rows'}: ${count(matched)} matched, ${count(added)} new, ${count(skipped)} skipped.`;
}
