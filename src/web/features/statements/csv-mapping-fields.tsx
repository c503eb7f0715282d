/**
 * For a CSV whose header the server does not recognise: which column is the date, the
 * description and the amount (or debit and credit), and how its dates are written, chosen while
 * looking at the file's first lines.
 */
import { Button } from 'react-bootstrap';
import { CSV_DATE_FORMATS } from '../../../domain/statements/csv-date-formats.js';
import type { CsvMapping } from '../../../domain/statements/csv-statement.js';
import { type FieldErrors, numberFromInput } from '../../components/field-errors.js';
import { ChoiceSelect } from '../../components/form-controls.js';
import { FormField } from '../../components/form-field.js';

export interface MappingValues {
  readonly date: string;
  readonly description: string;
  readonly amount: string;
  readonly debit: string;
  readonly credit: string;
  readonly dateFormat: string;
}

export const EMPTY_MAPPING: MappingValues = { date: '', description: '', amount: '', debit: '', credit: '', dateFormat: '' };

export function mappingValuesOf(mapping: CsvMapping): MappingValues {
  const text = (column: number | undefined) => (column === undefined ? '' : String(column));
  return {
    date: text(mapping.date),
    description: text(mapping.description),
    amount: text('amount' in mapping ? mapping.amount : undefined),
    debit: text('debit' in mapping ? mapping.debit : undefined),
    credit: text('credit' in mapping ? mapping.credit : undefined),
    dateFormat: mapping.dateFormat,
  };
}

/** The values as the contract's mapping schema checks them: an unchosen column is missing. */
export function mappingCandidate(values: MappingValues): unknown {
  return {
    date: numberFromInput(values.date),
    description: numberFromInput(values.description),
    amount: numberFromInput(values.amount),
    debit: numberFromInput(values.debit),
    credit: numberFromInput(values.credit),
    dateFormat: values.dateFormat === '' ? undefined : values.dateFormat,
  };
}

interface CsvMappingFieldsProps {
  readonly idPrefix: string;
  readonly columns: { readonly count: number; readonly firstRows: readonly (readonly string[])[] };
  readonly values: MappingValues;
  /** Keyed by the request's paths: `mapping.date`, or `mapping` for the whole choice. */
  readonly errors: FieldErrors;
  readonly disabled: boolean;
  readonly onChange: (values: MappingValues) => void;
  readonly onPreview: () => void;
}

const COLUMN_FIELDS = [
  ['date', 'Date column'],
  ['description', 'Description column'],
  ['amount', 'Amount column'],
  ['debit', 'Debit column'],
  ['credit', 'Credit column'],
] as const;

const MAX_HINT_LENGTH = 24;

export function CsvMappingFields({ idPrefix, columns, values, errors, disabled, onChange, onPreview }: CsvMappingFieldsProps) {
  const indexes = Array.from({ length: columns.count }, (_, index) => String(index));
  const first = columns.firstRows[0] ?? [];
  const columnLabel = (choice: string) => {
    const cell = (first[Number(choice)] ?? '').trim();
    const hint = cell.length > MAX_HINT_LENGTH ? `${cell.slice(0, MAX_HINT_LENGTH)}…` : cell;
    return hint === '' ? `Column ${Number(choice) + 1}` : `Column ${Number(choice) + 1} (${hint})`;
  };
  return (
    <fieldset className="border rounded p-3 mb-3">
      <legend className="fs-6 fw-semibold float-none w-auto px-1 mb-1">Columns</legend>
      <p className="small mb-2">
        This file has no header the page recognises. Choose the date, the description, and either one Amount column (negative for money out)
        or a Debit and a Credit column.
      </p>
      {errors.mapping !== undefined && (
        <p className="text-danger small" role="alert">
          {errors.mapping}
        </p>
      )}
      <div className="table-responsive mb-3">
        <table className="table table-sm table-bordered small mb-0">
          <caption>First lines of the file</caption>
          <thead>
            <tr>
              {indexes.map((index) => (
                <th key={index} scope="col" className="text-nowrap">
                  Column {Number(index) + 1}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {columns.firstRows.map((cells, line) => (
              // Lines have no identity of their own, and never change while shown.
              <tr key={line}>
                {indexes.map((index) => (
                  <td key={index} className="text-break">
                    {cells[Number(index)] ?? ''}
                  </td>
                ))}
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      <div className="row">
        {COLUMN_FIELDS.map(([key, label]) => (
          <div key={key} className="col-sm-6">
            <FormField id={`${idPrefix}-${key}`} label={label} error={errors[`mapping.${key}`]}>
              {(control) => (
                <ChoiceSelect
                  {...control}
                  choices={indexes}
                  labelOf={columnLabel}
                  value={values[key]}
                  disabled={disabled}
                  onValueChange={(value) => onChange({ ...values, [key]: value })}
                />
              )}
            </FormField>
          </div>
        ))}
        <div className="col-sm-6">
          <FormField id={`${idPrefix}-date-format`} label="Date format" error={errors['mapping.dateFormat']}>
            {(control) => (
              <ChoiceSelect
                {...control}
                choices={CSV_DATE_FORMATS}
                value={values.dateFormat}
                disabled={disabled}
                onValueChange={(value) => onChange({ ...values, dateFormat: value })}
              />
            )}
          </FormField>
        </div>
      </div>
      <Button variant="outline-primary" disabled={disabled} onClick={onPreview}>
        Preview
      </Button>
    </fieldset>
  );
}
