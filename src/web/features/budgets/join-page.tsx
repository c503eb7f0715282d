/**
 * The invitation's page, `/join#<token>` (issue 38, point 3): the budget's name, who invited and the
 * role, with "Join" and "No thanks"; nothing of the budget before Join. The token is in the
 * fragment, which no request carries; the page reads it once and takes it out of the address (and
 * so out of the history), and sends it only in a body (decision 0088).
 */
import { useEffect, useState } from 'react';
import type { Budget, InvitationView } from '../../../contract/budgets.js';
import { useBudgetsApi } from '../../api/budget-calls.js';
import { ApiCallError } from '../../api/api-client.js';
import { Button } from '../../components/button.js';
import { useFirstPaintOnceShown } from '../../first-paint-once-shown.js';
import { ROLE_WORDS } from './budget-words.js';

type JoinState =
  | { readonly step: 'reading' }
  | { readonly step: 'invited'; readonly invitation: InvitationView }
  | { readonly step: 'declined'; readonly name: string }
  /** The server's own words: used, expired, revoked, the inviter's own, or no such invitation. */
  | { readonly step: 'refused'; readonly message: string };

/** The token as the link carries it: `#<token>`. */
function tokenOfAddress(): string {
  return window.location.hash.replace(/^#/, '');
}

/** What a refused call says: the server's words ("This invitation was already used."), else the call's. */
function refusalOf(error: unknown): string {
  if (error instanceof ApiCallError) return error.status === 0 ? `${error.message} ${error.detail}` : error.detail;
  return error instanceof Error ? error.message : String(error);
}

interface JoinPageProps {
  /** Opens the budget joined. */
  readonly onJoined: (budget: Budget) => void;
}

export function JoinPage({ onJoined }: JoinPageProps) {
  const api = useBudgetsApi();
  // Read once, before the address loses it below.
  const [token] = useState(tokenOfAddress);
  const [state, setState] = useState<JoinState>({ step: 'reading' });
  const [sending, setSending] = useState(false);

  useEffect(() => {
    // Out of the address, so Back, the history and a shared screen do not keep it.
    if (window.location.hash !== '')
      window.history.replaceState(window.history.state, '', `${window.location.pathname}${window.location.search}`);
  }, []);

  useEffect(() => {
    let live = true;
    if (token === '') {
      setState({ step: 'refused', message: 'This address holds no invitation. Open the whole link you were sent.' });
      return undefined;
    }
    api.viewInvitation(token).then(
      (invitation) => {
        if (live) setState({ step: 'invited', invitation });
      },
      (error: unknown) => {
        if (live) setState({ step: 'refused', message: refusalOf(error) });
      },
    );
    return () => {
      live = false;
    };
  }, [api, token]);

  useFirstPaintOnceShown(state.step !== 'reading');

  async function answer(join: boolean, invitation: InvitationView) {
    setSending(true);
    try {
      if (join) {
        onJoined(await api.acceptInvitation(token));
        return;
      }
      await api.declineInvitation(token);
      setState({ step: 'declined', name: invitation.budget.name });
    } catch (error) {
      setState({ step: 'refused', message: refusalOf(error) });
    } finally {
      setSending(false);
    }
  }

  return (
    <section className="py-4" aria-labelledby="join-heading">
      <h2 id="join-heading">Invitation</h2>
      {state.step === 'reading' ? <p>Opening the invitation…</p> : null}
      {state.step === 'invited' ? (
        <>
          <p className="fs-5">
            {state.invitation.invitedBy ?? 'Someone'} invites you to join <strong>{state.invitation.budget.name}</strong> as{' '}
            {ROLE_WORDS[state.invitation.role].toLowerCase()}.
          </p>
          <dl>
            <dt>Budget</dt>
            <dd>{state.invitation.budget.name}</dd>
            <dt>Invited by</dt>
            <dd>{state.invitation.invitedBy ?? 'Someone whose name we do not know'}</dd>
            <dt>Role</dt>
            <dd>{ROLE_WORDS[state.invitation.role]}</dd>
          </dl>
          <div className="d-flex gap-2">
            <Button variant="success" disabled={sending} onClick={() => void answer(true, state.invitation)}>
              Join
            </Button>
            <Button variant="outline-secondary" disabled={sending} onClick={() => void answer(false, state.invitation)}>
              No thanks
            </Button>
          </div>
        </>
      ) : null}
      {state.step === 'declined' ? <p role="status">You declined the invitation to {state.name}.</p> : null}
      {state.step === 'refused' ? (
        <p className="text-danger-emphasis" role="alert">
          {state.message}
        </p>
      ) : null}
      {state.step === 'declined' || state.step === 'refused' ? (
        <p>
          <a href="/">Go to your own budget</a>.
        </p>
      ) : null}
    </section>
  );
}
