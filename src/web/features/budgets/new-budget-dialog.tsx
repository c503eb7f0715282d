/**
 * "New Budget" (issue 38): a budget to share, named 1 to 50 characters. The form is checked with the
 * contract's schema before it goes; the server's 400 marks the field it names, anything else is said
 * above the field, and what the user typed stays.
 */
import { Alert } from 'react-bootstrap';
import { budgetNameSchema } from '../../../contract/budget-requests.js';
import { ApiCallError } from '../../api/api-client.js';
import type { SaveOutcome } from '../../components/field-errors.js';
import { TextInput } from '../../components/form-controls.js';
import { FormField } from '../../components/form-field.js';
import { SchemaFormDialog } from '../../components/schema-form-dialog.js';
import { problemOf } from './budget-words.js';

interface NewBudgetDialogProps {
  readonly show: boolean;
  /** Makes the budget; a failure is thrown (an ApiCallError). */
  readonly onCreate: (name: string) => Promise<void>;
  readonly onClose: () => void;
}

export function NewBudgetDialog({ show, onCreate, onClose }: NewBudgetDialogProps) {
  async function create(name: string): Promise<SaveOutcome> {
    try {
      await onCreate(name);
      return undefined;
    } catch (error) {
      // A 400 names its fields (`name`); every other failure is the form's.
      if (error instanceof ApiCallError && Object.keys(error.fields).length > 0) return error.fields;
      return { form: problemOf(error) };
    }
  }

  return (
    <SchemaFormDialog
      show={show}
      title="New Budget"
      submitLabel="Create"
      schema={budgetNameSchema}
      initialValues={{ name: '' }}
      candidateOf={(values) => values}
      renderFields={({ idPrefix, values, errors, onChange }) => (
        <>
          {errors.form ? (
            <Alert variant="danger" role="alert">
              {errors.form}
            </Alert>
          ) : null}
          <FormField
            id={`${idPrefix}-name`}
            label="Name"
            error={errors.name}
            help="A budget to share, such as Household: its accounts, plan and ledger are apart from yours."
          >
            {(control) => <TextInput {...control} value={values.name} onValueChange={(value) => onChange({ name: value })} />}
          </FormField>
        </>
      )}
      onSave={(payload) => create(payload.name)}
      onClose={onClose}
    />
  );
}
