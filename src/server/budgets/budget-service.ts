/**
 * Budgets shared with a partner (issue 38, decision 0088): a user's budgets, their members and
 * invitations. A budget owns its data through the owner columns its rows carry, so every other
 * service works on a shared budget as it does on a personal one; this service only says who is in
 * which budget with what role. Changes to a budget's members run under the budget's own lock (the
 * lock its data's writes take), and changes to a user's budgets under theirs, user first.
 */
import crypto from 'node:crypto';
import type { Budget, Invitation, InvitationView, Member, NewInvitation } from '../../contract/budgets.js';
import {
  type BudgetRole,
  BUDGET_ROLES,
  checkBudgetCount,
  checkMemberCount,
  checkOwnerLeft,
  INVITATION_LIFETIME_MS,
  INVITATION_USED,
  invitationRefusal,
  lastOwnerRefusal,
} from '../../domain/budgets.js';
import type { YourDataCounts } from '../../contract/your-data.js';
import { type ActivityChange, describeChange } from '../../domain/activity.js';
import { recordActivity } from '../activity/activity-store.js';
import { ConflictError, GoneError, InvalidInputError, NotFoundError, TooManyRequestsError } from '../../domain/errors.js';
import { compareNames } from '../../domain/names.js';
import { type Caller, callerKey, type SignedInUser } from '../auth/access-token.js';
import type { Database, OpenDatabase } from '../db/database.js';
import { lockOwner, withOwnerLock } from '../db/owner-lock.js';
import {
  BUDGET_ISSUER,
  countMembers,
  countMemberships,
  deleteBudget,
  deleteMember,
  ensurePersonalBudget,
  findMembership,
  insertBudget,
  insertMember,
  listMembers,
  listMemberships,
  rememberDisplayName,
  setMemberNotify,
  renameBudget,
  setMemberRole,
  type StoredMembership,
} from './budget-store.js';
import { EMAIL_NOT_OFFERED } from '../notifications/channel-delivery.js';
import { ASKED_FOR_QUIET, reserveConfirmation, waitInWords } from '../notifications/channel-mail-limits.js';
import type { EmailSender } from '../notifications/email-sender.js';
import { invitationLetter } from './invitation-mail.js';
import { MAX_INVITATION_MAILS_A_DAY, reserveInvitationMail } from './invitation-mail-limits.js';
import {
  closeInvitation,
  countPendingInvitations,
  findBudgetInvitation,
  findInvitationByToken,
  insertInvitation,
  listPendingInvitations,
  pendingInvitationRole,
  type StoredInvitation,
} from './invitation-store.js';

/** A budget as the /api scope hands it to the calls that name it: the caller's membership. */
export interface BudgetInView {
  readonly id: string;
  readonly name: string;
  readonly personal: boolean;
  readonly owner: Caller;
  readonly role: BudgetRole;
}

const NO_SUCH_MEMBER = 'No such member.';
const NO_SUCH_INVITATION = 'No such invitation.';
const PERSONAL_NOT_SHARED = 'Your personal budget stays yours alone: create a budget to share instead.';
const PERSONAL_STAYS = 'Your personal budget cannot be deleted or left: to remove its data, delete everything in Settings.';
const EVERYTHING_IS_YOURS =
  'Delete everything deletes your own data and leaves your shared budgets: send it without the Leftover-Budget header. To delete a shared budget itself, delete the budget.';
const BUDGET_GAINED_MEMBERS = 'Someone joined this budget meanwhile: make them an owner, or remove them, then delete everything again.';
const OWN_INVITATION = 'This is your own invitation: send it to the person you want to invite.';

/** Why an owner cannot mail an invitation that can no longer be taken; undefined while it can. */
function unsendable(invitation: StoredInvitation, now: Date): GoneError | undefined {
  if (invitation.state === 'ACCEPTED' || invitation.state === 'DECLINED') {
    return new GoneError('This invitation has already been used: create a new one to send.');
  }
  if (invitation.state === 'REVOKED') return new GoneError('This invitation was revoked: create a new one to send.');
  if (now.toISOString() >= invitation.expiresAt) return new GoneError('This invitation has expired: create a new one to send.');
  return undefined;
}

/** 192 random bits: far past the 128 the issue asks for, 32 characters of base64url. */
const TOKEN_BYTES = 24;

function tokenHash(token: string): string {
  return crypto.createHash('sha256').update(token).digest('hex');
}

function sameUser(a: Caller, b: Caller): boolean {
  return a.issuer === b.issuer && a.subject === b.subject;
}

function budgetAnswer(membership: Pick<StoredMembership, 'id' | 'name' | 'role' | 'personal' | 'notify'>): Budget {
  return { id: membership.id, name: membership.name, role: membership.role, personal: membership.personal, notify: membership.notify };
}

function invitationAnswer(invitation: StoredInvitation): Invitation {
  return {
    id: invitation.id,
    role: invitation.role,
    invitedBy: invitation.invitedByName,
    createdAt: invitation.createdAt,
    expiresAt: invitation.expiresAt,
  };
}

/** Whatever deletes all of a budget's data: YourDataService.delete, with `last` in its unit of work. */
export type BudgetDataEraser = (owner: Caller, last: (db: Database) => Promise<void>) => Promise<YourDataCounts>;

export class BudgetService {
  constructor(
    private readonly database: OpenDatabase,
    private readonly now: () => Date,
    /** Where the page is: an invitation's link opens it. */
    private readonly publicUrl: string,
    private readonly eraseData: BudgetDataEraser,
    /** The operator's SMTP server (SMTP_URL), which invitations are mailed through; null without one. */
    private readonly mail: EmailSender | null = null,
  ) {}

  /**
   * The budget `id` if `user` is its member (what the /api scope acts on), keeping the name the
   * others see them by up to date with their sign-in.
   */
  async find(user: SignedInUser, id: string): Promise<BudgetInView | undefined> {
    const found = await findMembership(this.database.db, user, id);
    if (!found) return undefined;
    if (user.name !== undefined && user.name !== found.displayName) await rememberDisplayName(this.database.db, found.id, user, user.name);
    return { id: found.id, name: found.name, personal: found.personal, owner: found.owner, role: found.role };
  }

  async list(user: SignedInUser): Promise<Budget[]> {
    // A read, as every list is, once the personal budget exists: the page asks after every first
    // paint, and two inserts that do nothing would each wait for the database's one writer.
    const listed = await listMemberships(this.database.db, user);
    if (listed.some((budget) => budget.personal && callerKey(budget.owner) === callerKey(user))) return listed.map(budgetAnswer);
    await ensurePersonalBudget(this.database.db, user, user.name ?? null, this.now());
    return (await listMemberships(this.database.db, user)).map(budgetAnswer);
  }

  async create(user: SignedInUser, name: string): Promise<Budget> {
    const id = crypto.randomUUID();
    await withOwnerLock(this.database, user, async (trx) => {
      const now = this.now();
      await ensurePersonalBudget(trx, user, user.name ?? null, now);
      const refusal = checkBudgetCount((await countMemberships(trx, user)) + 1);
      if (refusal) throw refusal;
      await insertBudget(trx, id, name, now);
      await insertMember(trx, id, user, 'OWNER', user.name ?? null, now);
    });
    return { id, name, role: 'OWNER', personal: false, notify: true };
  }

  async rename(user: SignedInUser, budget: BudgetInView, name: string): Promise<Budget> {
    await withOwnerLock(this.database, budget.owner, async (trx) => {
      await renameBudget(trx, budget.id, name);
      if (name !== budget.name) await this.record(trx, budget.owner, user, { kind: 'renamed', name });
    });
    const notify = (await findMembership(this.database.db, user, budget.id))?.notify ?? true;
    return budgetAnswer({ ...budget, name, notify });
  }

  /**
   * Whether the member's day's messages cover this budget (decision 0099): their own row only, so
   * any member may, a viewer too; the budget's data and the other members' choices stay as they are.
   * Answers their budgets, as the page lists them.
   */
  async setNotify(user: SignedInUser, budget: BudgetInView, notify: boolean): Promise<Budget[]> {
    await setMemberNotify(this.database.db, budget.id, user, notify);
    return this.list(user);
  }

  /** Deletes a shared budget, confirmed by its name: all of its data, its members and its invitations, in one unit of work. */
  async delete(user: SignedInUser, budget: BudgetInView, confirm: string): Promise<Budget[]> {
    if (budget.personal) throw new ConflictError(PERSONAL_STAYS);
    if (confirm.trim() !== budget.name) {
      const message = `Type the budget's name, ${budget.name}, to confirm.`;
      throw new InvalidInputError(message, { confirm: message });
    }
    await this.eraseData(budget.owner, (db) => deleteBudget(db, budget.id));
    return this.list(user);
  }

  /**
   * "Delete everything" (issue 38 point 7, decision 0095): the person's personal budget with all of
   * its data, each shared budget they are the only member of with its data, and their membership of
   * every other one. Refused, with nothing changed, while they are the last owner of a shared budget
   * others are still in. `budget` is the one the call's header named, if any: only the personal one.
   * Each budget goes in a unit of work of its own, under its own lock, where the check is made again.
   */
  async deleteEverything(user: SignedInUser, budget: BudgetInView | undefined): Promise<YourDataCounts> {
    if (budget && !budget.personal) throw new ConflictError(EVERYTHING_IS_YOURS);
    const memberships = await listMemberships(this.database.db, user);
    const shared: { membership: StoredMembership; alone: boolean }[] = [];
    const blocking: string[] = [];
    for (const membership of memberships) {
      if (membership.personal) continue;
      const members = await countMembers(this.database.db, membership.id);
      const owners = membership.role === 'OWNER' ? await countMembers(this.database.db, membership.id, 'OWNER') : 0;
      if (membership.role === 'OWNER' && owners === 1 && members > 1) blocking.push(membership.name);
      shared.push({ membership, alone: members === 1 });
    }
    const refusal = lastOwnerRefusal(blocking);
    if (refusal) throw refusal;
    for (const { membership, alone } of shared) {
      if (alone) {
        await this.eraseData(membership.owner, async (db) => {
          if ((await countMembers(db, membership.id)) > 1) throw new ConflictError(BUDGET_GAINED_MEMBERS);
          await deleteBudget(db, membership.id);
        });
      } else {
        await withOwnerLock(this.database, membership.owner, async (trx) => {
          const member = (await listMembers(trx, membership.id)).find((each) => sameUser(each.user, user));
          if (!member) return;
          const lost = checkOwnerLeft(await countMembers(trx, membership.id, 'OWNER'), member.role === 'OWNER');
          if (lost) throw new ConflictError(lastOwnerRefusal([membership.name])?.message ?? lost.message);
          await deleteMember(trx, membership.id, member.id);
          await this.record(trx, membership.owner, user, { kind: 'left' });
        });
      }
    }
    const personal = memberships.find((membership) => membership.personal);
    return this.eraseData(user, async (db) => {
      // Made again the next time it is needed, with a new id: nothing of the old one is left to find.
      if (personal) await deleteBudget(db, personal.id);
    });
  }

  /** The members by role (owners first), then by name; never a subject. */
  async members(user: Caller, budget: BudgetInView): Promise<Member[]> {
    const rank = (role: BudgetRole) => BUDGET_ROLES.indexOf(role);
    return (await listMembers(this.database.db, budget.id))
      .sort((a, b) => rank(a.role) - rank(b.role) || compareNames(a.displayName ?? '', b.displayName ?? '') || (a.id < b.id ? -1 : 1))
      .map((member) => ({ id: member.id, name: member.displayName, role: member.role, you: sameUser(member.user, user) }));
  }

  /** Changes a member's role; never the last owner's to another. */
  async changeRole(user: Caller, budget: BudgetInView, memberId: string, role: BudgetRole): Promise<Member[]> {
    await withOwnerLock(this.database, budget.owner, async (trx) => {
      const member = (await listMembers(trx, budget.id)).find((each) => each.id === memberId);
      if (!member) throw new NotFoundError(NO_SUCH_MEMBER);
      const refusal = checkOwnerLeft(await countMembers(trx, budget.id, 'OWNER'), member.role === 'OWNER' && role !== 'OWNER');
      if (refusal) throw refusal;
      await setMemberRole(trx, budget.id, memberId, role);
      if (role !== member.role) await this.record(trx, budget.owner, user, { kind: 'role', member: member.displayName, role });
    });
    return this.members(user, budget);
  }

  /** Removes a member: their next call naming the budget answers 404. Never the last owner. */
  async remove(user: Caller, budget: BudgetInView, memberId: string): Promise<Member[]> {
    await withOwnerLock(this.database, budget.owner, async (trx) => {
      const member = (await listMembers(trx, budget.id)).find((each) => each.id === memberId);
      if (!member) throw new NotFoundError(NO_SUCH_MEMBER);
      const refusal = checkOwnerLeft(await countMembers(trx, budget.id, 'OWNER'), member.role === 'OWNER');
      if (refusal) throw refusal;
      await deleteMember(trx, budget.id, memberId);
      await this.record(trx, budget.owner, user, { kind: 'removed', member: member.displayName });
    });
    return this.members(user, budget);
  }

  /** The caller leaves the budget; never their personal one, and never as its last owner. */
  async leave(user: SignedInUser, budget: BudgetInView): Promise<Budget[]> {
    if (budget.personal) throw new ConflictError(PERSONAL_STAYS);
    await withOwnerLock(this.database, budget.owner, async (trx) => {
      const member = (await listMembers(trx, budget.id)).find((each) => sameUser(each.user, user));
      // Removed meanwhile: there is nothing left to leave.
      if (!member) return;
      const refusal = checkOwnerLeft(await countMembers(trx, budget.id, 'OWNER'), member.role === 'OWNER');
      if (refusal) throw refusal;
      await deleteMember(trx, budget.id, member.id);
      await this.record(trx, budget.owner, user, { kind: 'left' });
    });
    return this.list(user);
  }

  async invitations(budget: BudgetInView): Promise<Invitation[]> {
    return (await listPendingInvitations(this.database.db, budget.id, this.now())).map(invitationAnswer);
  }

  /**
   * A single-use invitation for `role`, valid for 7 days on the app's clock. Members and pending
   * invitations together stay within the budget's limit, so every invitation out can be honoured.
   */
  async invite(user: SignedInUser, budget: BudgetInView, role: BudgetRole): Promise<NewInvitation> {
    if (budget.personal) throw new ConflictError(PERSONAL_NOT_SHARED);
    const token = crypto.randomBytes(TOKEN_BYTES).toString('base64url');
    const invitation = await withOwnerLock(this.database, budget.owner, async (trx) => {
      const now = this.now();
      const refusal = checkMemberCount((await countMembers(trx, budget.id)) + (await countPendingInvitations(trx, budget.id, now)) + 1);
      if (refusal) throw refusal;
      const made = {
        id: crypto.randomUUID(),
        budgetId: budget.id,
        role,
        invitedBy: { issuer: user.issuer, subject: user.subject },
        invitedByName: user.name ?? null,
        createdAt: now.toISOString(),
        expiresAt: new Date(now.getTime() + INVITATION_LIFETIME_MS).toISOString(),
      };
      await insertInvitation(trx, made, tokenHash(token));
      // Under the budget's lock already (it counts the members): the activity's numbers stay in order.
      await this.record(trx, budget.owner, user, { kind: 'invited', role });
      return { ...made, state: 'PENDING' as const };
    });
    return { invitation: invitationAnswer(invitation), token, link: this.linkOf(token), emailOffered: this.mail !== null };
  }

  /**
   * Mails a pending invitation's link to `email` (decision 0105), proved by its token, which only the
   * page that made it holds. No mail to strangers (issue 34): the address shares the confirmation
   * mail's limits across all users (one an hour, 3 a day) and its quiet days after an unsubscribe,
   * and a sender mails at most 10 invitations a day.
   */
  async sendInvitation(
    user: SignedInUser,
    budget: BudgetInView,
    invitationId: string,
    email: string,
    token: string,
  ): Promise<{ sentTo: string }> {
    if (!this.mail) throw new ConflictError(EMAIL_NOT_OFFERED);
    const invitation = await findBudgetInvitation(this.database.db, budget.id, invitationId);
    if (!invitation || invitation.tokenHash !== tokenHash(token)) throw new NotFoundError(NO_SUCH_INVITATION);
    const refusal = unsendable(invitation, this.now());
    if (refusal) throw refusal;
    const mine = await reserveInvitationMail(this.database, user, this.now());
    if (!mine.allowed) {
      throw new TooManyRequestsError(
        `You have mailed ${MAX_INVITATION_MAILS_A_DAY} invitations in the last 24 hours, the most a day: copy the link instead, or send it in ${waitInWords(mine.waitMs)}.`,
        Math.ceil(mine.waitMs / 1000),
      );
    }
    const slot = await reserveConfirmation(this.database, email, this.now());
    if (!slot.allowed) {
      // Nothing goes to this address: the sender keeps their mail for another.
      await mine.release();
      if (slot.quiet) throw new InvalidInputError(ASKED_FOR_QUIET, { email: ASKED_FOR_QUIET });
      throw new TooManyRequestsError(
        `This address was sent mail from Leftover lately: an address gets at most one an hour and 3 a day. Try again in ${waitInWords(slot.waitMs)}.`,
        Math.ceil(slot.waitMs / 1000),
      );
    }
    const letter = invitationLetter({
      budgetName: budget.name,
      invitedBy: invitation.invitedByName,
      role: invitation.role,
      link: this.linkOf(token),
      expiresAt: invitation.expiresAt,
    });
    const result = await this.mail.sendLetter(email, letter);
    // The mail server's own reason (the operator's server, not an address the owner chose), as Settings shows an email channel's.
    if (!result.delivered) throw new ConflictError(`Not sent: ${result.reason}`);
    await withOwnerLock(this.database, budget.owner, (trx) =>
      this.record(trx, budget.owner, user, { kind: 'emailed', role: invitation.role }),
    );
    return { sentTo: email };
  }

  /** The page's address that opens an invitation: the token in the fragment, which no request carries. */
  private linkOf(token: string): string {
    return `${this.publicUrl.replace(/\/$/, '')}/join#${token}`;
  }

  async revoke(user: SignedInUser, budget: BudgetInView, invitationId: string): Promise<Invitation[]> {
    // Under the budget's lock, as every change that records an activity entry (decision 0100).
    await withOwnerLock(this.database, budget.owner, async (trx) => {
      const role = await pendingInvitationRole(trx, budget.id, invitationId);
      if (!role || !(await closeInvitation(trx, invitationId, 'REVOKED', this.now(), budget.id))) {
        throw new NotFoundError(NO_SUCH_INVITATION);
      }
      await this.record(trx, budget.owner, user, { kind: 'revoked', role });
    });
    return this.invitations(budget);
  }

  /** What the invited person sees before joining: the budget's name, who invited and the role; nothing of its data. */
  async view(token: string): Promise<InvitationView> {
    const invitation = await this.open(this.database.db, token);
    return {
      budget: { name: invitation.budgetName },
      invitedBy: invitation.invitedByName,
      role: invitation.role,
      expiresAt: invitation.expiresAt,
    };
  }

  /** Joins the budget with the invitation's role, using it up. Never the inviter, nor someone already in it. */
  async accept(user: SignedInUser, token: string): Promise<Budget> {
    const seen = await this.open(this.database.db, token);
    return withOwnerLock(this.database, user, async (trx) => {
      // The user's lock, then the budget's (only a shared budget is ever invited to): every call that takes both takes them in this order.
      await lockOwner(trx, this.database.kind, { issuer: BUDGET_ISSUER, subject: seen.budgetId });
      const invitation = await this.open(trx, token);
      if (sameUser(invitation.invitedBy, user)) throw new ConflictError(OWN_INVITATION);
      if (await findMembership(trx, user, invitation.budgetId)) {
        throw new ConflictError(`You are already a member of ${invitation.budgetName}.`);
      }
      const now = this.now();
      await ensurePersonalBudget(trx, user, user.name ?? null, now);
      const refusal =
        checkBudgetCount((await countMemberships(trx, user)) + 1) ?? checkMemberCount((await countMembers(trx, invitation.budgetId)) + 1);
      if (refusal) throw refusal;
      if (!(await closeInvitation(trx, invitation.id, 'ACCEPTED', now))) throw new GoneError(INVITATION_USED);
      await insertMember(trx, invitation.budgetId, user, invitation.role, user.name ?? null, now);
      await this.record(trx, { issuer: BUDGET_ISSUER, subject: invitation.budgetId }, user, { kind: 'joined', role: invitation.role });
      return { id: invitation.budgetId, name: invitation.budgetName, role: invitation.role, personal: false, notify: true };
    });
  }

  /** "No thanks": the invitation is used up, and the budget's owners no longer see it pending. */
  async decline(user: SignedInUser, token: string): Promise<{ declined: true }> {
    const invitation = await this.open(this.database.db, token);
    if (sameUser(invitation.invitedBy, user)) throw new ConflictError(OWN_INVITATION);
    const now = this.now();
    if (!(await closeInvitation(this.database.db, invitation.id, 'DECLINED', now))) throw new GoneError(INVITATION_USED);
    return { declined: true };
  }

  /** Who changed the budget's members or name, in its activity (decision 0094); under the budget's lock, which numbers its entries. */
  private record(db: Database, owner: Caller, user: SignedInUser, change: ActivityChange): Promise<void> {
    return recordActivity(db, owner, user, describeChange(change), this.now());
  }

  /** The invitation a token names, if it can still be taken: 404 for no such token, 410 used, revoked or expired. */
  private async open(db: Database, token: string) {
    const invitation = await findInvitationByToken(db, tokenHash(token));
    if (!invitation) throw new NotFoundError(NO_SUCH_INVITATION);
    const refusal = invitationRefusal(invitation.state, new Date(invitation.expiresAt), this.now());
    if (refusal) throw refusal;
    return invitation;
  }
}
