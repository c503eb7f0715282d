import { type ReactNode, useId } from 'react';
import type * as z from 'zod/mini';
import type { FieldErrors } from './field-errors.js';
import { ModalDialog } from './modal-dialog.js';
import { ModalForm } from './modal-form.js';
import type { DialogSubmit } from './use-dialog-submit.js';
import { type SchemaFormOptions, useSchemaForm } from './use-dialog-submit.js';

/** What a form's fields get from the dialog that holds their values. */
export interface FormFieldsProps<Values> {
  /** Prefix for the controls' ids, unique on the page. */
  readonly idPrefix: string;
  readonly values: Values;
  readonly errors: FieldErrors;
  readonly onChange: (values: Values) => void;
}

/** What a dialog's extra parts (a Delete button and its confirmation) get: they send like the form does. */
type FormActions = Pick<DialogSubmit, 'sending' | 'send'>;

interface SchemaFormDialogProps<Schema extends z.ZodMiniType, Values> extends Omit<SchemaFormOptions<Schema, Values>, 'staysOpen'> {
  readonly show: boolean;
  readonly title: string;
  readonly submitLabel: string;
  /** Above the fields: a warning or a notice. */
  readonly notice?: ReactNode;
  readonly renderFields: (fields: FormFieldsProps<Values>) => ReactNode;
  /** Below the fields: what an extra action asks before it runs. */
  readonly renderBelowFields?: (actions: FormActions) => ReactNode;
  /** At the footer's start, before Cancel: an extra action such as Delete. */
  readonly renderFooterStart?: (actions: FormActions) => ReactNode;
  readonly onClose: () => void;
}

/**
 * A dialog whose form is checked against a contract schema before anything is sent (useSchemaForm).
 * The caller remounts it per opening (a changing key), so it always opens fresh.
 */
export function SchemaFormDialog<Schema extends z.ZodMiniType, Values>({
  show,
  title,
  submitLabel,
  schema,
  initialValues,
  candidateOf,
  check,
  errorPrefix = '',
  notice,
  renderFields,
  renderBelowFields,
  renderFooterStart,
  onSave,
  onClose,
}: SchemaFormDialogProps<Schema, Values>) {
  const idPrefix = useId();
  const { formRef, values, setValues, errors, sending, send, submit } = useSchemaForm({
    schema,
    initialValues,
    candidateOf,
    check,
    errorPrefix,
    onSave,
  });

  const actions: FormActions = { sending, send };
  return (
    <ModalDialog show={show} title={title} onClose={onClose}>
      <ModalForm
        ref={formRef}
        submitLabel={submitLabel}
        submitting={sending}
        onSubmit={submit}
        onCancel={onClose}
        footerStart={renderFooterStart?.(actions)}
      >
        {notice}
        {renderFields({ idPrefix, values, errors, onChange: setValues })}
        {renderBelowFields?.(actions)}
      </ModalForm>
    </ModalDialog>
  );
}
