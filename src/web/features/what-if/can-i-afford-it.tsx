/**
 * "Can I afford it?" on Home (issue 36 item 3, decision 0076): an amount and a date (today unless
 * changed) answered in one sentence from POST /api/what-if, which stores nothing; "Add it" adds the
 * purchase as an unpaid row, undoable like any add. Loaded alongside Home's requests, so the first
 * view's script does not carry it.
 */
import { useId, useState } from 'react';
import type { AccountView } from '../../../contract/account-codecs.js';
import { Form } from '../../components/bootstrap-form.js';
import { type WhatIfAnswer, whatIfAnswerSchema } from '../../../contract/what-if.js';
import { whatIfItemSchema } from '../../../contract/what-if-requests.js';
import { type IsoDate, isoDate } from '../../../domain/calendar-date.js';
import { type Cents, dollarsToCents } from '../../../domain/money.js';
import { PURCHASE_NAME } from '../../../domain/what-if.js';
import { accountLedgerApi } from '../../api/account-calls.js';
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
  /** The user's accounts as Home read them: with several, the Account field offers them (issue 36), the primary one first chosen. */
  readonly accounts?: readonly AccountView[] | undefined;
  /** A purchase out of the primary account was weighed (null: none is shown): Home's chart draws it dashed. */
  readonly onAsked?: ((purchases: readonly { readonly date: IsoDate; readonly amount: Cents }[] | null) => void) | undefined;
}

interface Asked {
  readonly date: IsoDate;
  readonly amount: number;
  /** The account chosen, or undefined for the primary one (the only one, or left as it was). */
  readonly accountId: string | undefined;
  /** Said in the sentence when the user has several accounts. */
  readonly accountName: string | undefined;
  readonly answer: WhatIfAnswer['accounts'][number];
}

export function CanIAffordIt({ today, account, accounts = [], onAdded, onAsked }: CanIAffordItProps) {
  const api = useApiClient();
  const ids = { amount: useId(), date: useId(), account: useId() };
  const [asked, setAsked] = useState<Asked | null>(null);
  const [added, setAdded] = useState('');
  const several = accounts.length > 1;
  const form = useSchemaForm({
    schema: whatIfItemSchema,
    initialValues: { amount: '', date: today as string, accountId: '' },
    // Left empty: the primary account, as the API takes it.
    candidateOf: (values) => ({
      date: values.date,
      amount: values.amount.trim() === '' ? undefined : Number(values.amount),
      ...(several && values.accountId !== '' && { accountId: values.accountId }),
    }),
    errorPrefix: 'items.0.',
    staysOpen: true,
    onSave: async (item) => {
      setAdded('');
      try {
        const answer = await api.request({ ...endpoint('whatIf'), answer: whatIfAnswerSchema, body: { items: [item] } });
        const first = answer.accounts[0];
        const chosen = several ? accounts.find((one) => one.id === (item.accountId ?? first?.accountId)) : undefined;
        // Home's chart is the primary account's: only a purchase out of it is drawn there.
        const primary = item.accountId === undefined || accounts.find((one) => one.id === item.accountId)?.primary === true;
        onAsked?.(first && primary ? [{ date: isoDate(item.date), amount: dollarsToCents(item.amount) }] : null);
        setAsked(
          first
            ? {
                date: isoDate(item.date),
                amount: item.amount,
                accountId: item.accountId,
                accountName: chosen?.name ?? account,
                answer: first,
              }
            : null,
        );
        return undefined;
      } catch (error) {
        setAsked(null);
        onAsked?.(null);
        const fields = error instanceof ApiCallError ? error.fields : {};
        return Object.keys(fields).length > 0 ? fields : { form: error instanceof Error ? error.message : 'Failed to check the purchase!' };
      }
    },
  });

  const addIt = async (purchase: Asked) => {
    try {
      const into = purchase.accountId === undefined ? api : accountLedgerApi(api, purchase.accountId);
      await into.addTransactionChanges({ date: purchase.date, name: PURCHASE_NAME, type: 'D', amount: purchase.amount });
      setAsked(null);
      // Added, it is in the forecast itself now: the dashed line goes.
      onAsked?.(null);
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
          {several && (
            <FormField id={ids.account} label="Account" error={form.errors.accountId}>
              {(control) => (
                <Form.Select
                  {...control}
                  value={form.values.accountId === '' ? (accounts.find((one) => one.primary)?.id ?? '') : form.values.accountId}
                  onChange={(event) => form.setValues((current) => ({ ...current, accountId: event.target.value }))}
                >
                  {accounts.map((one) => (
                    <option key={one.id} value={one.id}>
                      {one.name}
                    </option>
                  ))}
                </Form.Select>
              )}
            </FormField>
          )}
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
            {whatIfText(dollarsToCents(asked.amount), asked.date, asked.answer, asked.accountName)}
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
