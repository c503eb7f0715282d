import type { FormEvent, ReactNode } from 'react';
import { Form } from './bootstrap-form.js';
import type { SchemaForm } from './use-dialog-submit.js';

interface InlineFormProps {
  readonly form: Pick<SchemaForm<unknown>, 'formRef' | 'submit'>;
  readonly className?: string;
  readonly children: ReactNode;
}

/**
 * A useSchemaForm form where it stands on the page (Settings' sections), its submit button among
 * its children; ModalForm is the same in a dialog. The contract schema checks the values, so the
 * browser's own validation is off.
 */
export function InlineForm({ form, className, children }: InlineFormProps) {
  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    void form.submit();
  }

  return (
    <Form ref={form.formRef} noValidate onSubmit={submit} className={className}>
      {children}
    </Form>
  );
}
