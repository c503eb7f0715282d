import { type ReactNode, useEffect, useId, useRef, useState } from 'react';
import type * as z from 'zod/mini';
import { checkForm, type FieldErrors, type SaveOutcome, withoutPrefix } from './field-errors.js';
import { ModalDialog } from './modal-dialog.js';
import { ModalForm } from './modal-form.js';
import { type DialogSubmit, useDialogSubmit } from './use-dialog-submit.js';

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
  /**
   * A check the schema cannot make because it needs more than the payload (the ledger's dates for
   * a transaction's date). It runs beside the schema, so both kinds of mistake show at once; where
   * both mark a field, the schema's message stands.
   */
  readonly check?: (values: Values) => FieldErrors;
  /**
   * What the payload's paths put before the form's field names ('ledger.' when the payload is
   * { ledger: { ... } }); removed from the schema's and the server's error keys alike.
   */
  readonly errorPrefix?: string;
  /** Above the fields: a warning or a notice. */
  readonly notice?: ReactNode;
  readonly renderFields: (fields: FormFieldsProps<Values>) => ReactNode;
  /** Below the fields: what an extra action asks before it runs. */
  readonly renderBelowFields?: (actions: FormActions) => ReactNode;
  /** At the footer's start, before Cancel: an extra action such as Delete. */
  readonly renderFooterStart?: (actions: FormActions) => ReactNode;
  /** Sends the checked payload; answers undefined when it worked and the caller closes the dialog. */
  readonly onSave: (payload: z.output<Schema>) => Promise<SaveOutcome>;
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
  const formRef = useRef<HTMLFormElement>(null);
  const [values, setValues] = useState(initialValues);
  const { sending, errors, setErrors, send } = useDialogSubmit(errorPrefix);
  // Only a failed check of the form moves focus; after a failed call "Whoops!" takes it.
  const focusFirstError = useRef(false);

  useEffect(() => {
    if (!focusFirstError.current) return;
    focusFirstError.current = false;
    formRef.current?.querySelector<HTMLElement>('[aria-invalid="true"]')?.focus();
  }, [errors]);

  async function submit() {
    const checked = checkForm(schema, candidateOf(values));
    const fields = { ...check?.(values), ...(checked.ok ? {} : withoutPrefix(checked.fields, errorPrefix)) };
    if (!checked.ok || Object.keys(fields).length > 0) {
      focusFirstError.current = true;
      setErrors(fields);
      return;
    }
    setErrors({});
    await send(() => onSave(checked.value));
  }

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
