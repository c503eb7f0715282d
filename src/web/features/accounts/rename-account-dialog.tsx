/** "Rename Account": the account's new name, unique among the user's accounts (the server checks). */
import { accountUpdateSchema } from '../../../contract/account-input.js';
import type { SaveOutcome } from '../../components/field-errors.js';
import { TextInput } from '../../components/form-controls.js';
import { FormField } from '../../components/form-field.js';
import { SchemaFormDialog } from '../../components/schema-form-dialog.js';

interface RenameAccountDialogProps {
  readonly show: boolean;
  readonly name: string;
  readonly onSave: (name: string) => Promise<SaveOutcome>;
  readonly onClose: () => void;
}

export function RenameAccountDialog({ show, name, onSave, onClose }: RenameAccountDialogProps) {
  return (
    <SchemaFormDialog
      show={show}
      title="Rename Account"
      submitLabel="Save"
      schema={accountUpdateSchema}
      initialValues={{ name }}
      candidateOf={(values) => values}
      renderFields={({ idPrefix, values, errors, onChange }) => (
        <FormField id={`${idPrefix}-name`} label="Name" error={errors.name}>
          {(control) => <TextInput {...control} value={values.name} onValueChange={(value) => onChange({ name: value })} />}
        </FormField>
      )}
      onSave={(update) => onSave(update.name ?? name)}
      onClose={onClose}
    />
  );
}
