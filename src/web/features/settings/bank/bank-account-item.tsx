/**
 * One account of the bridge (institution, name, last four, balance, currency) and what it is linked
 * to: one of the user's accounts, a new one of a chosen kind, or nothing. An account in another
 * currency is listed and never linked ("Leftover keeps dollars only for now.").
 */
import { useId, useState } from 'react';
import { Form } from 'react-bootstrap';
import type { AccountView } from '../../../../contract/account-codecs.js';
import { DOLLARS_ONLY, linkBankAccountRequestSchema } from '../../../../contract/bank-connections.js';
import { type BankAccountLink, type BankConnectionView, type BankRemoteAccountView, useBankApi } from '../../../api/bank-calls.js';
import { FormField } from '../../../components/form-field.js';
import { InlineForm } from '../../../components/inline-form.js';
import { SaveRow } from '../../../components/save-row.js';
import { useSchemaForm } from '../../../components/use-dialog-submit.js';
import { settingsCall } from '../settings-call.js';
import { balanceText, likelyKind, NEW_ACCOUNT_KINDS, type NewAccountKind, remoteAccountName } from './bank-words.js';

/** The choice that makes a new account; every other choice is an account's id, or '' for none. */
const NEW = 'new';
const NOT_LINKED = '';

const KIND_WORDS: Readonly<Record<NewAccountKind, string>> = { CHECKING: 'Checking', SAVINGS: 'Savings' };

/** The request's fields this form shows: the server's message for any of them goes beside it. */
const FIELDS = ['accountId', 'newAccount', 'newAccount.name', 'newAccount.kind'];

interface BankAccountItemProps {
  readonly connectionId: string;
  readonly account: BankRemoteAccountView;
  readonly accounts: readonly AccountView[];
  readonly onLinked: (connection: BankConnectionView, madeAccount: boolean) => void;
  /** Whether the caller may link it: another member's connection shows its links, disabled (decision 0100). */
  readonly yours: boolean;
}

interface LinkValues {
  readonly choice: string;
  readonly name: string;
  readonly kind: NewAccountKind;
}

function linkOf(values: LinkValues): BankAccountLink {
  if (values.choice === NEW) return { newAccount: { name: values.name, kind: values.kind } };
  return { accountId: values.choice === NOT_LINKED ? null : values.choice };
}

export function BankAccountItem({ connectionId, account, accounts, onLinked, yours }: BankAccountItemProps) {
  const label = remoteAccountName(account);
  return (
    <li className="border-top pt-2 mt-2" aria-label={label}>
      <div className="d-flex flex-wrap align-items-baseline column-gap-3">
        <span className="fw-semibold">{label}</span>
        <span className="text-body-secondary small">{account.institution}</span>
        <span className="ms-auto">
          {balanceText(account.balance, account.currency)} <span className="small text-body-secondary">{account.currency}</span>
        </span>
      </div>
      {account.currency === 'USD' ? (
        // A disabled fieldset disables every control of the form, its Save too.
        <fieldset disabled={!yours}>
          <LinkForm connectionId={connectionId} account={account} accounts={accounts} onLinked={onLinked} yours={yours} />
        </fieldset>
      ) : (
        <p className="small text-body-secondary mb-0">{DOLLARS_ONLY}</p>
      )}
    </li>
  );
}

function LinkForm({ connectionId, account, accounts, onLinked }: BankAccountItemProps) {
  const bank = useBankApi();
  const ids = { choice: useId(), name: useId(), kind: useId() };
  const linked = account.accountId ?? NOT_LINKED;
  const [saved, setSaved] = useState('');
  const form = useSchemaForm({
    schema: linkBankAccountRequestSchema,
    initialValues: { choice: linked, name: account.name, kind: likelyKind(account.name) } satisfies LinkValues,
    candidateOf: linkOf,
    staysOpen: true,
    onSave: (link) => {
      setSaved('');
      const made = link.newAccount !== undefined;
      return settingsCall(
        () => bank.linkAccount(connectionId, account.id, link),
        (connection) => {
          onLinked(connection, made);
          const now = connection.accounts.find((each) => each.id === account.id)?.accountId ?? null;
          const named = accounts.find((each) => each.id === now)?.name ?? link.newAccount?.name;
          if (now === null) setSaved('Not linked: Leftover does not sync it.');
          else setSaved(made ? `Linked to a new account, ${named ?? ''}.` : `Linked to ${named ?? 'your account'}.`);
        },
        FIELDS,
      );
    },
  });
  // The server's answer is what stands (a new account's id, an account deleted since): the choice follows it.
  const [basis, setBasis] = useState(linked);
  if (basis !== linked) {
    setBasis(linked);
    form.setValues((values) => ({ ...values, choice: linked }));
  }

  const choiceError = form.errors.accountId ?? form.errors.newAccount;
  return (
    <InlineForm form={form} className="mt-1">
      <FormField id={ids.choice} label="Link to" error={choiceError}>
        {(control) => (
          <Form.Select
            {...control}
            value={form.values.choice}
            onChange={(event) => form.setValues((values) => ({ ...values, choice: event.target.value }))}
          >
            <option value={NOT_LINKED}>Not linked</option>
            {linked !== NOT_LINKED && !accounts.some((each) => each.id === linked) && <option value={linked}>Your linked account</option>}
            {accounts.map((each) => (
              <option key={each.id} value={each.id}>
                {each.name}
              </option>
            ))}
            <option value={NEW}>A new account…</option>
          </Form.Select>
        )}
      </FormField>
      {form.values.choice === NEW && (
        <div className="d-flex flex-wrap column-gap-3">
          <FormField id={ids.name} label="New account's name" error={form.errors['newAccount.name']}>
            {(control) => (
              <Form.Control
                {...control}
                value={form.values.name}
                onChange={(event) => form.setValues((values) => ({ ...values, name: event.target.value }))}
              />
            )}
          </FormField>
          <FormField
            id={ids.kind}
            label="Kind"
            error={form.errors['newAccount.kind']}
            help="A credit card: add it on Plan with its card settings, then link it here."
          >
            {(control) => (
              <Form.Select
                {...control}
                value={form.values.kind}
                onChange={(event) => {
                  const kind = NEW_ACCOUNT_KINDS.find((each) => each === event.target.value);
                  if (kind) form.setValues((values) => ({ ...values, kind }));
                }}
              >
                {NEW_ACCOUNT_KINDS.map((kind) => (
                  <option key={kind} value={kind}>
                    {KIND_WORDS[kind]}
                  </option>
                ))}
              </Form.Select>
            )}
          </FormField>
        </div>
      )}
      <SaveRow label="Save link" sending={form.sending} message={form.errors.form ?? saved} />
    </InlineForm>
  );
}
