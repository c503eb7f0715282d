/**
 * "Can I afford it?" on Home (issue 36 item 3, decision 0076): an amount and a date (today unless
 * changed) answered in one sentence from POST /api/what-if, which stores nothing; "Add it" adds the
 * purchase as an unpaid row, undoable like any add. Loaded alongside Home's requests, so the first
 * view's script does not carry it.
 */
import { useId, useState } from 'react';
import { Form } from 'react-bootstrap';
import { type WhatIfAnswer, whatIfAnswerSchema } from '../../../contract/what-if.js';
import { whatIfItemSchema } from '../../../contract/what-if-requests.js';
import { type IsoDate, isoDate } from '../../../domain/calendar-date.js';
import { dollarsToCents } from '../../../domain/money.js';
import { PURCHASE_NAME } from '../../../domain/what-if.js';
import { ApiCallError, endpoint } from '../../api/api-client.js';
import { useApiClient } from '../../api/api-context.js';
import { Button } from '../../components/button.js';
import { FormField } from '../../components/form-field.js';
import { InlineForm } from '../../components/inline-form.js';
import { useSchemaForm } from '../../components/use-dialog-submit.js';
import { whatIfText } from './what-if-text.js';

interface CanIAffordItProps {
  readonly today: IsoDate;
  /** The primary account's name, said when the user has several. */
  readonly account?: string | undefined;
  /** After "Add it" wrote the row: Home reads its forecast again. */
  readonly onAdded: () => void;
}

interface Asked {
  readonly date: IsoDate;
  readonly amount: number;
  readonly answer: WhatIfAnswer['accounts'][number];
}

export function CanIAffordIt({ today, account, onAdded }: CanIAffordItProps) {
  const api = useApiClient();
  const ids = { amount: useId(), date: useId() };
  const [asked, setAsked] = useState<Asked | null>(null);
  const [added, setAdded] = useState('');
  const form = useSchemaForm({
    schema: whatIfItemSchema,
    initialValues: { amount: '', date: today as string },
    candidateOf: (values) => ({ date: values.date, amount: values.amount.trim() === '' ? undefined : Number(values.amount) }),
    errorPrefix: 'items.0.',
    staysOpen: true,
    onSave: async (item) => {
      setAdded('');
      try {
        const answer = await api.request({ ...endpoint('whatIf'), answer: whatIfAnswerSchema, body: { items: [item] } });
        const first = answer.accounts[0];
        setAsked(first ? { date: isoDate(item.date), amount: item.amount, answer: first } : null);
        return undefined;
      } catch (error) {
        setAsked(null);
        const fields = error instanceof ApiCallError ? error.fields : {};
        return Object.keys(fields).length > 0 ? fields : { form: error instanceof Error ? error.message : 'Failed to check the purchase!' };
      }
    },
  });

  const addIt = async (purchase: Asked) => {
    try {
      await api.addTransactionChanges({ date: purchase.date, name: PURCHASE_NAME, type: 'D', amount: purchase.amount });
      setAsked(null);
      setAdded(`Added ${PURCHASE_NAME}.`);
      onAdded();
    } catch (error) {
      setAdded(error instanceof Error ? error.message : 'Failed to add transaction!');
    }
  };

  return (
    <>
      <InlineForm form={form}>
        <div className="d-flex flex-wrap gap-3">
          <FormField id={ids.amount} label="Amount" error={form.errors.amount}>
            {(control) => (
              <Form.Control
                {...control}
                inputMode="decimal"
                value={form.values.amount}
                onChange={(event) => form.setValues((current) => ({ ...current, amount: event.target.value }))}
              />
            )}
          </FormField>
          <FormField id={ids.date} label="Date" error={form.errors.date}>
            {(control) => (
              <Form.Control
                {...control}
                type="date"
                value={form.values.date}
                onChange={(event) => form.setValues((current) => ({ ...current, date: event.target.value }))}
              />
            )}
          </FormField>
        </div>
        <Button type="submit" variant="primary" size="sm" disabled={form.sending}>
          Check
        </Button>
      </InlineForm>
      <div role="status" className="mt-3">
        {form.errors.form && <p className="mb-0">{form.errors.form}</p>}
        {asked && (
          <p className={`fw-semibold mb-2 ${asked.answer.affordable ? '' : 'text-danger-emphasis'}`}>
            {whatIfText(dollarsToCents(asked.amount), asked.date, asked.answer, account)}
          </p>
        )}
        {added && <p className="mb-0">{added}</p>}
      </div>
      {asked && (
        <Button variant="outline-primary" size="sm" onClick={() => void addIt(asked)}>
          Add it
        </Button>
      )}
    </>
  );
}
