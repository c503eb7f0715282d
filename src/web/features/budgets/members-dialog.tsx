/**
 * "Members" (issue 38, points 3 and 4): who is in the budget and as what. Owners change roles,
 * remove members, invite by a single-use link they copy, and revoke invitations not yet taken;
 * every member can leave (the last owner cannot: the server says so). Every failure is said at the
 * top of the dialog in the catalogue's words and the server's, and nothing chosen is lost.
 * Where the server can mail (decision 0105), a new link can also be sent to an address.
 */
import { useEffect, useId, useRef, useState } from 'react';
import { Alert, Button, Form, Modal, Table } from 'react-bootstrap';
import type { Budget, Invitation, Member, NewInvitation } from '../../../contract/budgets.js';
import { BUDGET_ROLES, type BudgetRole } from '../../../domain/budgets.js';
import { formatDate, isIsoDate } from '../../../domain/calendar-date.js';
import { useBudgetsApi } from '../../api/budget-calls.js';
import { ModalDialog } from '../../components/modal-dialog.js';
import { problemOf, ROLE_WORDS } from './budget-words.js';
import { SendInvitationForm } from './send-invitation-form.js';

interface MembersDialogProps {
  readonly show: boolean;
  /** The budget in view, not the personal one. */
  readonly budget: Budget;
  /** The user left the budget: the page goes back to their own. */
  readonly onLeft: () => void;
  readonly onClose: () => void;
}

/** A member as the list names them: the provider gave no name for some. */
function nameOf(member: Member): string {
  return member.name ?? 'A member with no name';
}

/** 'Sun, Dec 6, 2026' from an ISO instant (its day in UTC, as the server wrote it). */
function dayOf(instant: string): string {
  const day = instant.slice(0, 10);
  return isIsoDate(day) ? formatDate(day) : instant;
}

export function MembersDialog({ show, budget, onLeft, onClose }: MembersDialogProps) {
  const api = useBudgetsApi();
  const owner = budget.role === 'OWNER';
  const [members, setMembers] = useState<readonly Member[] | null>(null);
  const [invitations, setInvitations] = useState<readonly Invitation[]>([]);
  const [problem, setProblem] = useState<string | null>(null);
  const [sending, setSending] = useState(false);

  /** Runs one call while the dialog's buttons wait; a failure is said at the top. */
  async function run(call: () => Promise<void>): Promise<void> {
    setProblem(null);
    setSending(true);
    try {
      await call();
    } catch (error) {
      setProblem(problemOf(error));
    } finally {
      setSending(false);
    }
  }

  useEffect(() => {
    if (!show) return;
    let live = true;
    void (async () => {
      try {
        const [found, pending] = await Promise.all([
          api.listMembers(budget.id),
          owner ? api.listInvitations(budget.id) : Promise.resolve([]),
        ]);
        if (!live) return;
        setMembers(found);
        setInvitations(pending);
      } catch (error) {
        if (live) setProblem(problemOf(error));
      }
    })();
    return () => {
      live = false;
    };
  }, [api, budget.id, owner, show]);

  const owners = members?.filter((member) => member.role === 'OWNER').length ?? 0;
  // The last owner cannot leave (decision 0088): the button is offered only where leaving can work.
  const canLeave = !owner || owners > 1;

  return (
    <ModalDialog show={show} title="Members" onClose={onClose} size="lg">
      <Modal.Body>
        <p>Everyone here sees all of {budget.name}: its accounts, plan and ledger. What is in your own budget stays yours.</p>
        {problem ? (
          <Alert variant="danger" role="alert">
            {problem}
          </Alert>
        ) : null}
        {members === null ? (
          <p>Loading the members…</p>
        ) : (
          <Table size="sm" className="align-middle">
            <caption className="visually-hidden">Members of {budget.name}</caption>
            <thead>
              <tr>
                <th scope="col">Name</th>
                <th scope="col">Role</th>
                {owner ? <th scope="col">Actions</th> : null}
              </tr>
            </thead>
            <tbody>
              {members.map((member) => (
                <tr key={member.id}>
                  <td>
                    {nameOf(member)}
                    {member.you ? ' (you)' : null}
                  </td>
                  <td>
                    {owner ? (
                      <Form.Select
                        size="sm"
                        aria-label={`Role of ${nameOf(member)}`}
                        value={member.role}
                        disabled={sending}
                        onChange={(event) =>
                          void run(async () => setMembers(await api.changeRole(budget.id, member.id, event.target.value as BudgetRole)))
                        }
                      >
                        {BUDGET_ROLES.map((role) => (
                          <option key={role} value={role}>
                            {ROLE_WORDS[role]}
                          </option>
                        ))}
                      </Form.Select>
                    ) : (
                      ROLE_WORDS[member.role]
                    )}
                  </td>
                  {owner ? (
                    <td>
                      {member.you ? null : (
                        <Button
                          variant="outline-danger"
                          size="sm"
                          disabled={sending}
                          onClick={() => void run(async () => setMembers(await api.removeMember(budget.id, member.id)))}
                        >
                          Remove {nameOf(member)}
                        </Button>
                      )}
                    </td>
                  ) : null}
                </tr>
              ))}
            </tbody>
          </Table>
        )}
        {owner ? (
          <Invitations
            budget={budget}
            invitations={invitations}
            sending={sending}
            run={run}
            onInvited={(made) => setInvitations((current) => [...current, made.invitation])}
            onRevoked={setInvitations}
          />
        ) : null}
      </Modal.Body>
      <Modal.Footer>
        {canLeave && members !== null ? (
          <Button
            variant="outline-danger"
            className="me-auto"
            disabled={sending}
            onClick={() =>
              void run(async () => {
                await api.leaveBudget(budget.id);
                onLeft();
              })
            }
          >
            Leave {budget.name}
          </Button>
        ) : null}
        <Button variant="primary" onClick={onClose}>
          Done
        </Button>
      </Modal.Footer>
    </ModalDialog>
  );
}

interface InvitationsProps {
  readonly budget: Budget;
  readonly invitations: readonly Invitation[];
  readonly sending: boolean;
  readonly run: (call: () => Promise<void>) => Promise<void>;
  readonly onInvited: (made: NewInvitation) => void;
  readonly onRevoked: (pending: readonly Invitation[]) => void;
}

/** An owner's invitations: a new link for a role, to copy (or mail), and the ones still out, to revoke. */
function Invitations({ budget, invitations, sending, run, onInvited, onRevoked }: InvitationsProps) {
  const api = useBudgetsApi();
  const roleId = useId();
  const linkId = useId();
  const [role, setRole] = useState<BudgetRole>('EDITOR');
  const [made, setMade] = useState<NewInvitation | null>(null);
  const [copied, setCopied] = useState<string | null>(null);
  const linkInput = useRef<HTMLInputElement>(null);

  /** The Clipboard API where the browser allows it; else the link is selected for the user to copy. */
  async function copy(text: string) {
    try {
      await navigator.clipboard.writeText(text);
      setCopied('Copied the link.');
    } catch {
      linkInput.current?.focus();
      linkInput.current?.select();
      setCopied('The link is selected: copy it with Ctrl+C (⌘C on a Mac).');
    }
  }

  return (
    <section aria-labelledby={`${roleId}-heading`}>
      <h3 id={`${roleId}-heading`} className="h5 mt-3">
        Invite someone
      </h3>
      <p className="small">
        The link works once, for 7 days. Send it the way you would send a key: whoever opens it can join {budget.name}.
      </p>
      <div className="d-flex flex-wrap align-items-end gap-2 mb-3">
        <Form.Group controlId={roleId}>
          <Form.Label>Role</Form.Label>
          <Form.Select value={role} onChange={(event) => setRole(event.target.value as BudgetRole)}>
            {BUDGET_ROLES.map((choice) => (
              <option key={choice} value={choice}>
                {ROLE_WORDS[choice]}
              </option>
            ))}
          </Form.Select>
        </Form.Group>
        <Button
          variant="success"
          disabled={sending}
          onClick={() =>
            void run(async () => {
              const invitation = await api.createInvitation(budget.id, role);
              setCopied(null);
              setMade(invitation);
              onInvited(invitation);
            })
          }
        >
          Create invitation
        </Button>
      </div>
      {made !== null ? (
        <div className="mb-3">
          <Form.Label htmlFor={linkId}>Invitation link</Form.Label>
          <div className="d-flex gap-2">
            <Form.Control id={linkId} ref={linkInput} type="text" readOnly value={made.link} onFocus={(event) => event.target.select()} />
            <Button variant="outline-primary" onClick={() => void copy(made.link)}>
              Copy link
            </Button>
          </div>
          <p className="small mb-0 mt-1" role="status">
            {copied}
          </p>
          {/* A new form for each new link: what was typed and said for the last one goes with it. */}
          {made.emailOffered ? <SendInvitationForm key={made.invitation.id} budgetId={budget.id} made={made} /> : null}
        </div>
      ) : null}
      <h3 className="h5">Pending invitations</h3>
      {invitations.length === 0 ? (
        <p className="small">No invitations are waiting.</p>
      ) : (
        <ul className="list-unstyled d-grid gap-2">
          {invitations.map((invitation) => {
            const words = `${ROLE_WORDS[invitation.role]}, invited by ${invitation.invitedBy ?? 'an owner'}, until ${dayOf(invitation.expiresAt)}`;
            return (
              <li key={invitation.id} className="d-flex flex-wrap align-items-center gap-2">
                <span>{words}</span>
                <Button
                  variant="outline-danger"
                  size="sm"
                  disabled={sending}
                  aria-label={`Revoke the invitation: ${words}`}
                  onClick={() => void run(async () => onRevoked(await api.revokeInvitation(budget.id, invitation.id)))}
                >
                  Revoke
                </Button>
              </li>
            );
          })}
        </ul>
      )}
    </section>
  );
}
