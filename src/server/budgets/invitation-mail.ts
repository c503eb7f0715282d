/**
 * An invitation's link mailed to the person an owner names (issue 38 point 3, decision 0105): the
 * budget's name, who invited and as what, the link and until when it works. Nothing else of the
 * budget: the person has not joined, and may never.
 */
import type { BudgetRole } from '../../domain/budgets.js';
import { formatDate, isIsoDate } from '../../domain/calendar-date.js';
import { escapeHtml, type Letter } from '../notifications/email-sender.js';

const ROLE_WORDS: { readonly [Role in BudgetRole]: string } = { OWNER: 'an owner', EDITOR: 'an editor', VIEWER: 'a viewer' };

export interface InvitationLetterFacts {
  readonly budgetName: string;
  /** The inviter's display name; null when their provider gave none. */
  readonly invitedBy: string | null;
  readonly role: BudgetRole;
  readonly link: string;
  /** ISO instant the link stops working. */
  readonly expiresAt: string;
}

/** A display name comes from the sign-in provider: in a subject line it is one line of plain text. */
function oneLine(text: string): string {
  return text.replace(/[\p{Cc}\u2028\u2029]+/gu, ' ').trim();
}

export function invitationLetter({ budgetName, invitedBy, role, link, expiresAt }: InvitationLetterFacts): Letter {
  const who = invitedBy === null || oneLine(invitedBy) === '' ? 'Someone' : oneLine(invitedBy);
  const day = expiresAt.slice(0, 10);
  const until = isIsoDate(day) ? formatDate(day) : expiresAt;
  const invited = `${who} invited you to join ${budgetName} on Leftover as ${ROLE_WORDS[role]}.`;
  const works = `The link works once, until ${until}. It shows the budget's name, who invited you and the role before you choose to join.`;
  const why = `You get this because ${who} asked Leftover to send it to this address. If you do not know them, ignore this mail: nothing more will be sent.`;
  return {
    subject: `${who} invited you to ${budgetName} on Leftover`,
    text: `${invited}\n\nOpen the invitation: ${link}\n\n${works}\n\n${why}\n`,
    html:
      `<!doctype html><html><body>` +
      `<p>${escapeHtml(invited)}</p>` +
      `<p><a href="${escapeHtml(link)}">Open the invitation</a></p>` +
      `<p>${escapeHtml(works)}</p>` +
      `<p style="color:#555;font-size:small">${escapeHtml(why)}</p>` +
      `</body></html>`,
  };
}
