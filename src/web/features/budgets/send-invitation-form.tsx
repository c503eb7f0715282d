/**
 * "Send by email" beside a new invitation's link (issue 38 point 3, decision 0105), where the server
 * can mail: the address is checked with the contract's schema, then sent with the invitation's
 * token, which only this page holds. Says "Sent to sam@example.com." or why not, by the field
 * (a bad address, one that asked for no mail) or under the button (a limit, a used invitation).
 */
import { useId, useState } from 'react';
import { Form } from 'react-bootstrap';
import { sendInvitationRequestSchema } from '../../../contract/budget-requests.js';
import type { NewInvitation } from '../../../contract/budgets.js';
import { ApiCallError } from '../../api/api-client.js';
import { useBudgetsApi } from '../../api/budget-calls.js';
import { Button } from '../../components/button.js';
import type { SaveOutcome } from '../../components/field-errors.js';
import { FormField } from '../../components/form-field.js';
import { InlineForm } from '../../components/inline-form.js';
import { useSchemaForm } from '../../components/use-dialog-submit.js';
import { problemOf } from './budget-words.js';

interface SendInvitationFormProps {
  readonly budgetId: string;
  readonly made: NewInvitation;
}

export function SendInvitationForm({ budgetId, made }: SendInvitationFormProps) {
  const api = useBudgetsApi();
  const fieldId = useId();
  const [sent, setSent] = useState<string | null>(null);
  const form = useSchemaForm({
    schema: sendInvitationRequestSchema,
    initialValues: { email: '' },
    candidateOf: ({ email }) => ({ email, token: made.token }),
    staysOpen: true,
    onSave: async (request): Promise<SaveOutcome> => {
      setSent(null);
      try {
        const to = await api.sendInvitation(budgetId, made.invitation.id, request);
        setSent(`Sent to ${to}.`);
        form.setValues({ email: '' });
        return undefined;
      } catch (error) {
        // A refusal about the address goes beside it; any other (a limit, a used invitation) under the button.
        const email = error instanceof ApiCallError ? error.fields.email : undefined;
        return email !== undefined ? { email } : { form: problemOf(error) };
      }
    },
  });

  return (
    <InlineForm form={form} className="mt-2">
      <FormField id={fieldId} label="Send the link to" error={form.errors.email}>
        {(control) => (
          <div className="d-flex gap-2">
            <Form.Control
              {...control}
              type="email"
              autoComplete="email"
              placeholder="sam@example.com"
              value={form.values.email}
              onChange={(event) => form.setValues({ email: event.target.value })}
            />
            <Button type="submit" variant="outline-primary" className="text-nowrap" disabled={form.sending}>
              Send
            </Button>
          </div>
        )}
      </FormField>
      {form.errors.form !== undefined ? (
        <p className="small text-danger mb-0" role="alert">
          {form.errors.form}
        </p>
      ) : null}
      {sent !== null ? (
        <p className="small mb-0" role="status">
          {sent}
        </p>
      ) : null}
    </InlineForm>
  );
}
