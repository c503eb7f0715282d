import * as z from 'zod/mini';
import { EXPENSE_SORTS, type ExpenseSort } from '../../../contract/expenses.js';
import type { SaveOutcome } from '../../components/field-errors.js';
import { ChoiceSelect } from '../../components/form-controls.js';
import { FormField } from '../../components/form-field.js';
import { SchemaFormDialog } from '../../components/schema-form-dialog.js';
import { EXPENSE_SORT_LABELS } from './expense-sort.js';

/** A sort, or null for the default order; nothing is sent, the choice stays in this browser. */
const sortChoiceSchema = z.nullable(z.enum(EXPENSE_SORTS));

interface SortExpensesDialogProps {
  readonly show: boolean;
  /** The order in use; null is the default (day, then name). */
  readonly sort: ExpenseSort | null;
  readonly onSave: (sort: ExpenseSort | null) => Promise<SaveOutcome>;
  readonly onClose: () => void;
}

/** "Sort Expenses". The caller remounts it per opening, so it opens at the order in use. */
export function SortExpensesDialog({ show, sort, onSave, onClose }: SortExpensesDialogProps) {
  return (
    <SchemaFormDialog
      show={show}
      title="Sort Expenses"
      submitLabel="Save"
      schema={sortChoiceSchema}
      initialValues={sort ?? ''}
      candidateOf={(choice) => (choice === '' ? null : choice)}
      renderFields={({ idPrefix, values, errors, onChange }) => (
        <FormField
          id={`${idPrefix}-sort-by`}
          label="Sort By"
          error={errors.form}
          help="Without a choice, expenses are listed by day, then name."
        >
          {(control) => (
            <ChoiceSelect
              {...control}
              choices={EXPENSE_SORTS}
              labelOf={(sort) => EXPENSE_SORT_LABELS[sort]}
              value={values}
              onValueChange={onChange}
            />
          )}
        </FormField>
      )}
      onSave={onSave}
      onClose={onClose}
    />
  );
}
