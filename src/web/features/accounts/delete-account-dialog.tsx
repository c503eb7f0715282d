/**
 * "Delete Account": deleting an account deletes its ledger and cannot be undone, so the user types
 * its name, as the server asks (`{ "confirm": "<its name>" }`); its deposits and expenses move to
 * the primary account.
 */
import { removeAccountRequestSchema } from '../../../contract/account-input.js';
import type { FieldErrors, SaveOutcome } from '../../components/field-errors.js';
import { TextInput } from '../../components/form-controls.js';
import { FormField } from '../../components/form-field.js';
import { SchemaFormDialog } from '../../components/schema-form-dialog.js';

interface DeleteAccountDialogProps {
  readonly show: boolean;
  readonly name: string;
  readonly onConfirm: (confirm: string) => Promise<SaveOutcome>;
  readonly onClose: () => void;
}

export function DeleteAccountDialog({ show, name, onConfirm, onClose }: DeleteAccountDialogProps) {
  return (
    <SchemaFormDialog
      show={show}
      title="Delete Account"
      submitLabel="Delete"
      schema={removeAccountRequestSchema}
      initialValues={{ confirm: '' }}
      candidateOf={(values) => values}
      check={(values): FieldErrors => (values.confirm.trim() === name.trim() ? {} : { confirm: `Type ${name} to delete it.` })}
      notice={
        <p>
          Delete the account{' '}
          <strong>
            <bdi>{name}</bdi>
          </strong>{' '}
          and its ledger? This cannot be undone. Its deposits and expenses move to your primary account.
        </p>
      }
      renderFields={({ idPrefix, values, errors, onChange }) => (
        <FormField id={`${idPrefix}-confirm`} label="Type the account's name to confirm" error={errors.confirm}>
          {(control) => <TextInput {...control} value={values.confirm} onValueChange={(value) => onChange({ confirm: value })} />}
        </FormField>
      )}
      onSave={(request) => onConfirm(request.confirm)}
      onClose={onClose}
    />
  );
}
