/**
 * One bank connection: its state ("Connected", or "Needs attention" with the reason), its last sync
 * with the figures, warnings and balance checks, its bridge accounts to link, "Sync now" and
 * "Disconnect" (asked once more: a new Setup Token is needed to connect again).
 */
import { useEffect, useId, useRef, useState } from 'react';
import type { AccountView } from '../../../../contract/account-codecs.js';
import { NOT_YOUR_BANK_CONNECTION } from '../../../../contract/bank-connections.js';
import { type BankConnectionsView, type BankConnectionView, useBankApi } from '../../../api/bank-calls.js';
import { Button } from '../../../components/button.js';
import { problemOf } from '../settings-words.js';
import { BankAccountItem } from './bank-account-item.js';
import { connectionName, lastSyncText, syncAnswerText } from './bank-words.js';

interface BankConnectionItemProps {
  readonly connection: BankConnectionView;
  /** The user's accounts a bridge account can be linked to. */
  readonly accounts: readonly AccountView[];
  /** Why the accounts did not load; null when they did (or are loading). */
  readonly accountsProblem: string | null;
  readonly timeZone: string;
  /** A link's answer; `madeAccount` when it made a new account. */
  readonly onLinked: (connection: BankConnectionView, madeAccount: boolean) => void;
  /** Sync now ended, as it went: the connection's state and last sync are read again. */
  readonly onSynced: () => void;
  readonly onDisconnected: (connections: BankConnectionsView) => void;
}

export function BankConnectionItem({
  connection,
  accounts,
  accountsProblem,
  timeZone,
  onLinked,
  onSynced,
  onDisconnected,
}: BankConnectionItemProps) {
  const bank = useBankApi();
  const titleId = useId();
  const notYoursId = useId();
  const name = connectionName(connection);
  const [syncing, setSyncing] = useState(false);
  /** What the last Sync now or Disconnect said, in the connection's live region. */
  const [result, setResult] = useState('');
  const [confirming, setConfirming] = useState(false);
  const [disconnecting, setDisconnecting] = useState(false);
  const keepRef = useRef<HTMLButtonElement>(null);
  useEffect(() => {
    if (confirming) keepRef.current?.focus();
  }, [confirming]);

  async function syncNow() {
    setSyncing(true);
    setResult('Syncing…');
    // A refusal (429 within a minute, 409 when the bridge failed) is said with the server's words.
    const text = await bank.syncNow(connection.id).then(syncAnswerText, problemOf);
    setResult(text);
    setSyncing(false);
    onSynced();
  }

  async function disconnect() {
    setDisconnecting(true);
    try {
      onDisconnected(await bank.disconnect(connection.id));
    } catch (error) {
      setResult(problemOf(error));
      setConfirming(false);
      setDisconnecting(false);
    }
  }

  const { status, lastSync, yours, madeBy } = connection;
  // Another member's connection uses their bank login: the page says so before anyone presses (decision 0100).
  const theirs = yours ? {} : { disabled: true, 'aria-describedby': notYoursId };
  const attention = status.state === 'Needs attention';
  return (
    <li className="list-group-item" aria-labelledby={titleId}>
      <div className="d-flex flex-wrap align-items-baseline gap-2">
        <h4 id={titleId} className="h6 mb-0 me-auto">
          {name}
        </h4>
        <span className={attention ? 'badge text-bg-danger' : 'badge text-bg-success'}>{status.state}</span>
      </div>
      {attention && status.reason !== null && <p className="small text-danger-emphasis mb-1">{status.reason}</p>}
      {!status.scheduled && (
        <p className="small text-danger-emphasis mb-1">
          Leftover no longer syncs it on its own. Make a new Setup Token at your bridge, connect with it, then disconnect this one.
        </p>
      )}
      <p className="small text-body-secondary mb-1">{lastSyncText(lastSync, timeZone)}</p>
      {lastSync !== null && lastSync.warnings.length > 0 && (
        <ul className="small text-warning-emphasis mb-1" aria-label={`Warnings of the last sync of ${name}`}>
          {lastSync.warnings.map((warning, index) => (
            <li key={index}>{warning}</li>
          ))}
        </ul>
      )}
      {lastSync !== null && lastSync.balances.length > 0 && (
        <ul className="small list-unstyled mb-1" aria-label={`The bank's balances at the last sync of ${name}`}>
          {lastSync.balances.map((balance) => {
            const account = connection.accounts.find((each) => each.id === balance.remoteId);
            return <li key={balance.remoteId}>{account ? `${account.name}: ${balance.text}` : balance.text}</li>;
          })}
        </ul>
      )}
      {/* Whose it is, for a connection another member made (decision 0106); one's own needs no name. */}
      {!yours && madeBy !== null && <p className="small text-body-secondary mb-1">Connected by {madeBy}</p>}
      {!yours && (
        <p id={notYoursId} className="small text-body-secondary mb-1">
          {NOT_YOUR_BANK_CONNECTION}
        </p>
      )}
      {accountsProblem !== null && <p className="small text-danger-emphasis mb-1">Your accounts have not loaded. {accountsProblem}</p>}
      {connection.accounts.length === 0 ? (
        <p className="small mb-2">The bridge lists no accounts for this connection.</p>
      ) : (
        <ul className="list-unstyled my-2" aria-label={`Accounts of ${name}`}>
          {connection.accounts.map((account) => (
            <BankAccountItem
              key={account.id}
              connectionId={connection.id}
              account={account}
              accounts={accounts}
              onLinked={onLinked}
              yours={yours}
            />
          ))}
        </ul>
      )}
      <div className="d-flex flex-wrap align-items-center gap-2">
        {confirming ? (
          <div role="group" aria-label={`Disconnect ${name}?`} className="d-flex flex-wrap align-items-center gap-2">
            <span className="small">
              Disconnect {name}? Leftover deletes its access at once and syncs it no more; the rows already in your ledgers stay.
            </span>
            <Button variant="outline-danger" size="sm" disabled={disconnecting} onClick={() => void disconnect()}>
              Yes, disconnect
            </Button>
            <Button ref={keepRef} variant="outline-secondary" size="sm" disabled={disconnecting} onClick={() => setConfirming(false)}>
              Keep it
            </Button>
          </div>
        ) : (
          <>
            <Button variant="outline-primary" size="sm" disabled={syncing} onClick={() => void syncNow()} {...theirs}>
              Sync now
            </Button>
            <Button variant="outline-danger" size="sm" onClick={() => setConfirming(true)} {...theirs}>
              Disconnect
            </Button>
          </>
        )}
        <span role="status" className="small">
          {result}
        </span>
      </div>
    </li>
  );
}
