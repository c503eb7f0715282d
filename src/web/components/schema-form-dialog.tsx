import { type ReactNode, useEffect, useId, useRef, useState } from 'react';
import type * as z from 'zod/mini';
import { checkForm, type FieldErrors } from './field-errors.js';
import { ModalDialog } from './modal-dialog.js';
import { ModalForm } from './modal-form.js';

/** What a form's fields get from the dialog that holds their values. */
export interface FormFieldsProps<Values> {
  /** Prefix for the controls' ids, unique on the page. */
  readonly idPrefix: string;
  readonly values: Values;
  readonly errors: FieldErrors;
  readonly onChange: (values: Values) => void;
}

interface SchemaFormDialogProps<Schema extends z.ZodMiniType, Values> {
  readonly show: boolean;
  readonly title: string;
  readonly submitLabel: string;
  /** The contract schema the server checks the payload with; the form is checked with it first. */
  readonly schema: Schema;
  /** The values the form opens with; later changes are ignored, as the caller remounts per opening. */
  readonly initialValues: Values;
  /** The form's values as the schema checks them (numbers from the inputs' text, and so on). */
  readonly candidateOf: (values: Values) => unknown;
  readonly renderFields: (fields: FormFieldsProps<Values>) => ReactNode;
  /** Sends the checked payload; answers the server's field messages when the call failed. */
  readonly onSave: (input: z.output<Schema>) => Promise<FieldErrors>;
  readonly onClose: () => void;
}

/**
 * A dialog whose form is checked against a contract schema before anything is sent. The caller
 * remounts it per opening (a changing key), so it always opens fresh.
 */
export function SchemaFormDialog<Schema extends z.ZodMiniType, Values>({
  show,
  title,
  submitLabel,
  schema,
  initialValues,
  candidateOf,
  renderFields,
  onSave,
  onClose,
}: SchemaFormDialogProps<Schema, Values>) {
  const idPrefix = useId();
  const formRef = useRef<HTMLFormElement>(null);
  const [values, setValues] = useState(initialValues);
  const [errors, setErrors] = useState<FieldErrors>({});
  const [saving, setSaving] = useState(false);
  // Only a failed check of the form moves focus; after a failed call "Whoops!" takes it.
  const focusFirstError = useRef(false);

  useEffect(() => {
    if (!focusFirstError.current) return;
    focusFirstError.current = false;
    formRef.current?.querySelector<HTMLElement>('[aria-invalid="true"]')?.focus();
  }, [errors]);

  async function submit() {
    const checked = checkForm(schema, candidateOf(values));
    if (!checked.ok) {
      focusFirstError.current = true;
      setErrors(checked.fields);
      return;
    }
    setErrors({});
    setSaving(true);
    try {
      setErrors(await onSave(checked.value));
    } finally {
      setSaving(false);
    }
  }

  return (
    <ModalDialog show={show} title={title} onClose={onClose}>
      <ModalForm ref={formRef} submitLabel={submitLabel} submitting={saving} onSubmit={submit} onCancel={onClose}>
        {renderFields({ idPrefix, values, errors, onChange: setValues })}
      </ModalForm>
    </ModalDialog>
  );
}
