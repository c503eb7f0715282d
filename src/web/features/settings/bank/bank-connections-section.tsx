/**
 * "Bank connections" (issue 37, decisions 0082 and 0085): "Connect with SimpleFIN" with a pasted
 * Setup Token, then each connection with its state, its last sync, its bridge accounts to link, Sync
 * now and Disconnect. Loads its own data, as Keep at least does: the rest of Settings works without it.
 */
import { type ReactNode, useCallback, useEffect, useId, useState } from 'react';
import { Form } from 'react-bootstrap';
import type { AccountView } from '../../../../contract/account-codecs.js';
import { connectBankRequestSchema } from '../../../../contract/bank-connections.js';
import { useAccountsApi } from '../../../api/account-calls.js';
import { type BankConnectionView, useBankApi } from '../../../api/bank-calls.js';
import { Button } from '../../../components/button.js';
import { FormField } from '../../../components/form-field.js';
import { InlineForm } from '../../../components/inline-form.js';
import { SaveRow } from '../../../components/save-row.js';
import { useSchemaForm } from '../../../components/use-dialog-submit.js';
import { settingsCall } from '../settings-call.js';
import { problemOf } from '../settings-words.js';
import { BankConnectionItem } from './bank-connection-item.js';

interface BankConnectionsSectionProps {
  /** The user's zone: when each sync ran is said in it. */
  readonly timeZone: string;
}

type Loaded<T> =
  { readonly state: 'loading' } | { readonly state: 'failed'; readonly problem: string } | { readonly state: 'ok'; readonly value: T };

export function BankConnectionsSection({ timeZone }: BankConnectionsSectionProps) {
  const bank = useBankApi();
  const accountsApi = useAccountsApi();
  const headingId = useId();
  const [connections, setConnections] = useState<Loaded<readonly BankConnectionView[]>>({ state: 'loading' });
  const [accounts, setAccounts] = useState<Loaded<readonly AccountView[]>>({ state: 'loading' });

  const loadConnections = useCallback(
    () =>
      bank.listConnections().then(
        (list) => setConnections({ state: 'ok', value: list.connections }),
        (error: unknown) => setConnections({ state: 'failed', problem: problemOf(error) }),
      ),
    [bank],
  );
  const loadAccounts = useCallback(
    () =>
      accountsApi.listAccounts().then(
        (info) => setAccounts({ state: 'ok', value: info.accounts }),
        (error: unknown) => setAccounts({ state: 'failed', problem: problemOf(error) }),
      ),
    [accountsApi],
  );
  useEffect(() => {
    void loadConnections();
    void loadAccounts();
  }, [loadConnections, loadAccounts]);

  /** One connection as the server now answers it (a link), in its place. */
  const replace = (connection: BankConnectionView) =>
    setConnections((shown) =>
      shown.state === 'ok' ? { state: 'ok', value: shown.value.map((each) => (each.id === connection.id ? connection : each)) } : shown,
    );

  let body: ReactNode;
  if (connections.state === 'loading') body = <p className="text-body-secondary">Loading your bank connections…</p>;
  else if (connections.state === 'failed') {
    body = (
      <p className="d-flex flex-wrap align-items-center gap-2">
        <span className="text-danger-emphasis">Bank connections have not loaded. {connections.problem}</span>
        <Button variant="outline-primary" size="sm" onClick={() => void loadConnections()}>
          Retry bank connections
        </Button>
      </p>
    );
  } else {
    body = (
      <>
        {connections.value.length === 0 ? (
          <p>No banks connected yet.</p>
        ) : (
          <ul className="list-group mb-3">
            {connections.value.map((connection) => (
              <BankConnectionItem
                key={connection.id}
                connection={connection}
                accounts={accounts.state === 'ok' ? accounts.value : []}
                accountsProblem={accounts.state === 'failed' ? accounts.problem : null}
                timeZone={timeZone}
                onLinked={(answer, madeAccount) => {
                  replace(answer);
                  // A new account was made for it: every connection's choices name it from now on.
                  if (madeAccount) void loadAccounts();
                }}
                onSynced={() => void loadConnections()}
                onDisconnected={(list) => setConnections({ state: 'ok', value: list.connections })}
              />
            ))}
          </ul>
        )}
        <ConnectForm
          onConnected={(connection) =>
            setConnections((shown) => (shown.state === 'ok' ? { state: 'ok', value: [...shown.value, connection] } : shown))
          }
        />
      </>
    );
  }

  return (
    <section aria-labelledby={headingId} className="mt-4">
      <h3 id={headingId} className="h5">
        Bank connections
      </h3>
      <p className="small text-body-secondary">
        Leftover reads what your bank did through a SimpleFIN bridge, a few times a day and when you press Sync now, and puts it in the
        ledger of the account you link it to.
      </p>
      {body}
    </section>
  );
}

interface ConnectFormProps {
  readonly onConnected: (connection: BankConnectionView) => void;
}

/** "Connect with SimpleFIN": the Setup Token is claimed once; a token claimed before is refused beside the field, in the words. */
function ConnectForm({ onConnected }: ConnectFormProps) {
  const bank = useBankApi();
  const fieldId = useId();
  const [saved, setSaved] = useState('');
  const form = useSchemaForm({
    schema: connectBankRequestSchema,
    initialValues: { setupToken: '' },
    candidateOf: (values) => values,
    staysOpen: true,
    onSave: ({ setupToken }) => {
      setSaved('');
      return settingsCall(
        () => bank.connect(setupToken),
        (connection) => {
          // The token is spent: the field is cleared, and what was typed is no longer worth keeping.
          form.setValues({ setupToken: '' });
          onConnected(connection);
          setSaved('Connected. Link each account to one of yours below; Leftover syncs the linked ones.');
        },
        ['setupToken'],
      );
    },
  });

  return (
    <InlineForm form={form}>
      <FormField
        id={fieldId}
        label="Setup Token"
        error={form.errors.setupToken}
        help="Make one at your SimpleFIN bridge, copy it and paste it here. It works once: Leftover keeps the access it gives, never the token."
      >
        {(control) => (
          <Form.Control
            {...control}
            as="textarea"
            rows={2}
            spellCheck={false}
            autoComplete="off"
            className="font-monospace"
            value={form.values.setupToken}
            onChange={(event) => form.setValues({ setupToken: event.target.value })}
          />
        )}
      </FormField>
      <SaveRow label="Connect with SimpleFIN" sending={form.sending} message={form.errors.form ?? saved} />
    </InlineForm>
  );
}
