/** The tables as Kysely sees them. Every row carries its owner: the token's issuer and subject. */
import type { Generated } from 'kysely';

export interface OwnerColumns {
  owner_iss: string;
  owner_sub: string;
}

/**
 * Where money is (issue 25, decision 0042): each account has at most one ledger. Exactly one of an
 * owner's accounts is primary (a partial unique index holds it to at most one; the code to one).
 */
export interface AccountsTable extends OwnerColumns {
  id: string;
  name: string;
  /** The name as it is compared for uniqueness: lowercased, so "Savings" and "savings" are one name. */
  name_key: string;
  /** CHECKING, SAVINGS, CARD or CASH. */
  kind: string;
  /** 1 for the owner's primary account (what /api/ledger acts on), else 0. */
  is_primary: number;
  /** A card's settings (kind CARD); null for every other kind. */
  card_closing_day: number | null;
  card_due_day: number | null;
  card_pay_from_account_id: string | null;
  /** STATEMENT, MINIMUM or FIXED. */
  card_rule: string | null;
  card_amount_cents: number | null;
  card_credit_limit_cents: number | null;
  created_at: string;
}

export interface DepositsTable extends OwnerColumns {
  id: string;
  /** The account it is paid into; null only for rows written before accounts, which the migration fills. */
  account_id: string | null;
  name: string;
  type: string;
  day: string;
  amount_cents: number;
  start_date: string;
  frequency: string;
  created_at: string;
}

export interface ExpensesTable extends OwnerColumns {
  id: string;
  /** The account it is paid from; null only for rows written before accounts, which the migration fills. */
  account_id: string | null;
  /** The account it pays into, for a recurring transfer (decision 0043); null for a bill. */
  to_account_id: string | null;
  name: string;
  type: string;
  /** M, W, BW, Q or Y; M for every expense stored before expenses had a frequency. */
  frequency: string;
  day: number;
  amount_cents: number;
  /** The first due date; null for a monthly bill given none. */
  start_date: string | null;
  end_date: string | null;
  created_at: string;
}

export interface LedgersTable extends OwnerColumns {
  id: string;
  /**
   * The account the ledger belongs to: one ledger per account (decision 0042). Null for a ledger a
   * big restore staged or detached (decision 0072), which no account reads.
   */
  account_id: string | null;
  start_date: string;
  end_date: string;
  opening_balance_cents: number;
  /** The next creation-order number for a row of this ledger. */
  next_sequence: number;
  /** Moved on by every write that changes the ledger or its rows (decision 0030). */
  version: Generated<number>;
  /** The version a New Ledger replaced its rows at; 1 when never (decision 0040). */
  replaced_at_version: Generated<number>;
  created_at: string;
}

export interface LedgerTransactionsTable extends OwnerColumns {
  id: string;
  ledger_id: string;
  sequence: number;
  date: string;
  name: string;
  type: string;
  amount_cents: number;
  status: string;
  version: Generated<number>;
  /** 'deposit' or 'expense' for a generated row; null for a row added by hand (or stored before sources). */
  source_kind: string | null;
  source_id: string | null;
  /** The date the schedule put the row on. */
  source_occurrence: string | null;
  /** 1 once the user changed the date, name or amount of a generated row. */
  edited: Generated<number>;
  /** One side of a transfer (decision 0043): the other side's row and its account; both null otherwise. */
  transfer_id: string | null;
  transfer_account_id: string | null;
  /**
   * The row's block in ledger_row_blocks (issue 34). Null only between migration 0017 adding the
   * column and filling it: every row stored since has one.
   */
  block: number | null;
  /** The row's bank mark (decision 0081, bank-rows.ts): all four null for a row the bank never touched. */
  bank_account_id: string | null;
  bank_transaction_id: string | null;
  /** posted, pending or gone. */
  bank_state: string | null;
  bank_missing_since: string | null;
}

/**
 * A ledger's rows cut into blocks (issue 34, src/domain/row-blocks.ts): each an unbroken stretch of
 * row order, known by its low key (date, type, name, sequence), with its row count and signed sum
 * (credits plus, debits minus). Kept in step with ledger_transactions.block by every function that
 * writes rows (row-blocks.ts), so a write places a row from the blocks before it and its own block.
 */
export interface LedgerRowBlocksTable extends OwnerColumns {
  ledger_id: string;
  /** Numbered within the ledger, for good: rows name it. */
  block: number;
  /** The block's place in row order, 0 to the number of blocks less 1: renumbered when blocks are cut or merged. */
  rank: number;
  low_date: string;
  low_type: string;
  low_name: string;
  low_sequence: number;
  row_count: number;
  signed_cents: number;
}

/**
 * Per ledger and month (YYYY-MM): how many rows it has and their signed sums (credits plus, debits
 * minus), of all rows, of the CLEARED ones and of the PAID and CLEARED ones (issue 27). Kept in step
 * with ledger_transactions by every function that writes rows (month-totals.ts).
 */
export interface LedgerMonthTotalsTable extends OwnerColumns {
  ledger_id: string;
  month: string;
  row_count: number;
  signed_cents: number;
  cleared_cents: number;
  settled_cents: number;
}

/** Occurrences the user deleted from their ledger: never projected into it again. */
export interface LedgerSkippedOccurrencesTable extends OwnerColumns {
  ledger_id: string;
  source_kind: string;
  source_id: string;
  occurrence: string;
}

/** Statement rows a ledger has taken in (decision 0021): importing them again changes nothing. */
export interface LedgerImportedRowsTable extends OwnerColumns {
  ledger_id: string;
  /** Hex SHA-256 of the statement row's import id (a FITID, or a CSV row's fingerprint). */
  import_key: string;
  /** The ledger row it matched or created; kept as text, so the record outlives the row. */
  transaction_id: string;
  imported_at: string;
}

/**
 * Which of the owner's accounts an OFX or QFX file's bank account was last imported into (issue 25,
 * decision 0046): the next file of that bank account preselects it.
 */
export interface StatementAccountsTable extends OwnerColumns {
  /** Hex SHA-256 of the file's ACCTID: the bank's account number itself is not kept. */
  bank_account_key: string;
  /** The account it was imported into; the row goes with the account. */
  account_id: string;
  remembered_at: string;
}

/**
 * What an undoable write did, kept for ten minutes so it can be undone (decision 0040). Keyed by
 * a SHA-256 of the token the write answered: the token itself is never stored.
 */
export interface UndoEntriesTable extends OwnerColumns {
  /** Hex SHA-256 of the token. */
  token_hash: string;
  /** The owner's entries in the order they were recorded: only the newest are kept. */
  seq: number;
  /** The operation that recorded it (addTransaction, deleteDeposit, ...): what the undo answers. */
  kind: string;
  created_at: string;
  expires_at: string;
  /** JSON: the before-images and after-state the undo puts back and checks. */
  journal: string;
  /** Who made the write (decision 0094): only they may undo it. Null before migration 0026: the owner of the rows. */
  actor_iss: string | null;
  actor_sub: string | null;
  /** The name they went by then, for another member's refusal ("Only Alex can undo this."). */
  actor_name: string | null;
  /** The write's words in the activity ("paid Rent"), for the undo's own entry. */
  what: string | null;
}

/** Who did what in a budget (issue 38 point 5, decision 0094): the newest 500 per budget. */
export interface ActivityEntriesTable extends OwnerColumns {
  id: string;
  /** The budget's entries in the order they were recorded: the activity's paging cursor. */
  seq: number;
  at: string;
  /** Null for a change no person made (a scheduled bank sync). */
  actor_iss: string | null;
  actor_sub: string | null;
  actor_name: string | null;
  what: string;
}

/** One row per user who chose a time zone or notification settings (decisions 0047, 0051). */
export interface UserSettingsTable extends OwnerColumns {
  /** An IANA zone, as the user gave it (decision 0068); null: the server's default (TZ). */
  time_zone: string | null;
  /** 0 to 23, in the user's zone. */
  notify_hour: Generated<number>;
  /** 1 or 0: "Before my balance goes below $0". */
  below_zero: Generated<number>;
  /** 1 or 0: "Bills due tomorrow". */
  bills_due: Generated<number>;
  /** The user's local date whose messages were last planned; null before the first. */
  planned_on: string | null;
  updated_at: string;
  /** "Keep at least" in cents (issue 36); 0 unless set. */
  buffer_cents: Generated<number>;
  /** Everyday spending a week in cents, and the account it comes out of; both null while it is off. */
  everyday_weekly_cents: number | null;
  everyday_account_id: string | null;
}

/** Where a user's messages go: an email address, a push subscription, a webhook (decision 0051). */
export interface NotificationChannelsTable extends OwnerColumns {
  id: string;
  /** EMAIL, PUSH or WEBHOOK. */
  kind: string;
  /** The address, the URL, or the push subscription's endpoint. */
  target: string;
  target_key: string;
  /** A push subscription's keys (base64url); null for the other kinds. */
  push_p256dh: string | null;
  push_auth: string | null;
  /** 1 once an email address clicked its link; 1 from the start for the other kinds. */
  confirmed: number;
  /**
   * Unique, and no secret: the channel's id (decision 0069). Before migration 0017 it held the plain
   * token of both links; webhooks and push subscriptions, never sent theirs, may still hold one.
   */
  link_token: string;
  /** The last delivery: when, whether it arrived (1/0), and why not. */
  last_at: string | null;
  last_delivered: number | null;
  last_reason: string | null;
  created_at: string;
  /** Since when deliveries of the outbox's messages fail (null while they arrive), and how many in a row (decision 0070). */
  failing_since: string | null;
  failures: number;
  /** Not tried again before this: the channel's back-off. */
  retry_at: string | null;
  /** Set after 5 days of failures: nothing more is planned or sent for it until a test arrives. */
  needs_attention_at: string | null;
  /** A sender's claim on the channel: until when, and which process. */
  lease_until: string | null;
  lease_owner: string | null;
  /** When a sender last claimed it: the user whose channels were served longest ago goes first. */
  served_at: string | null;
}

/** A link an email carries (decision 0069): the hash of its token, what it does, and until when. */
export interface NotificationLinksTable {
  token_hash: string;
  /** CONFIRM or UNSUBSCRIBE. */
  purpose: string;
  channel_id: string;
  expires_at: string;
  created_at: string;
}

/** An email address across all users, by the hash of its normalised form (decision 0069). */
export interface NotificationAddressesTable {
  address_key: string;
  /** When its last three confirmation mails went, newest first. */
  confirm_sent_1: string | null;
  confirm_sent_2: string | null;
  confirm_sent_3: string | null;
  /** Until when it gets no confirmation mail and cannot be added: 30 days after a one-click unsubscribe. */
  quiet_until: string | null;
}

/** Every message, recorded before it is sent (decision 0051). */
export interface NotificationOutboxTable extends OwnerColumns {
  id: string;
  message_key: string;
  channel_id: string;
  account_id: string | null;
  /** BELOW_ZERO or BILLS_DUE. */
  kind: string;
  /** notice or reminder (a shortfall), bills (tomorrow's). */
  occasion: string;
  /** The date the message is about: the shortfall's, or tomorrow. */
  event_date: string;
  /** The user's local date it was planned on. */
  planned_on: string;
  title: string;
  message: string;
  url: string;
  /** pending, sent, failed or cancelled. */
  state: string;
  attempts: Generated<number>;
  next_attempt_at: string;
  first_attempt_at: string | null;
  /** A sender's claim: until when, and which process. */
  lease_until: string | null;
  lease_owner: string | null;
  last_error: string | null;
  created_at: string;
  sent_at: string | null;
}

/** Web push's VAPID key pair (issue 26): one row, made on first start and never replaced. */
export interface PushVapidKeysTable {
  /** Always 'current': the fixed key that lets two starting servers insert one pair between them. */
  name: string;
  /** URL-safe base64 of the uncompressed P-256 point, as browsers take it for applicationServerKey. */
  public_key: string;
  /** URL-safe base64 of the private scalar. */
  private_key: string;
  created_at: string;
}

/**
 * The request budgets' counters on PostgreSQL (decision 0071): one row per budget and key, shared
 * by every server process. Owned by server/operations/request-budget-store.ts.
 */
export interface RequestBudgetCountsTable {
  /** 'user' or 'address'. */
  budget: string;
  /** SHA-256 (base64url) of the user's issuer and subject, or of the address. */
  key_hash: string;
  /** Calls charged in the current window (a call that reads or writes many rows counts more). */
  count: number;
  /** When the current window ends: milliseconds since 1970, by the database's clock. */
  window_end: number;
}

/** A SimpleFIN connection (issue 37, decision 0082); owned by server/bank/bank-connection-store.ts. */
export interface BankConnectionsTable extends OwnerColumns {
  id: string;
  /** The Access URL sealed with the secrets key (decision 0080); never read back except to sync. */
  sealed_access_url: string;
  /** Connected or Needs attention. */
  state: string;
  reason: string | null;
  /** 1 while the schedule syncs it; 0 after a 402 or a 403, until reconnected. */
  scheduled: number;
  /** The UTC day requests_count counts. */
  requests_day: string;
  requests_count: number;
  last_request_at: string | null;
  next_sync_at: string;
  lease_until: string | null;
  lease_owner: string | null;
  /** The day (the owner's) of the last sync that succeeded. */
  last_success_on: string | null;
  /** The last sync's record (BankSyncRecord as JSON). */
  last_sync: string | null;
  created_at: string;
  /** The member who connected it (decision 0088); null for one made before budgets, by the owner of its rows. */
  made_by_iss: string | null;
  made_by_sub: string | null;
}

/** A bridge account of a connection and its link. */
export interface BankAccountsTable extends OwnerColumns {
  connection_id: string;
  remote_id: string;
  position: number;
  institution: string;
  name: string;
  currency: string;
  balance_cents: number | null;
  balance_date: string | null;
  account_id: string | null;
  last_success_on: string | null;
}

/** A ledger's bank keys that never come back (ClosedBankKey). */
export interface LedgerBankClosedKeysTable extends OwnerColumns {
  ledger_id: string;
  bank_account_id: string;
  bank_transaction_id: string;
  /** deleted or replaced. */
  reason: string;
  pending_date: string | null;
  pending_type: string | null;
  pending_amount_cents: number | null;
  /** On a posting closed with its deleted pending: that pending's key (decision 0086). */
  deleted_with_account_id: string | null;
  deleted_with_transaction_id: string | null;
}

/** One sync that asked the bridge. */
export interface BankSyncLogTable extends OwnerColumns {
  id: string;
  connection_id: string;
  started_at: string;
  trigger: string;
  requests: number;
  window_start: string | null;
  window_end: string | null;
  /** ok or failed. */
  outcome: string;
  added: number;
  matched: number;
  replaced: number;
  flagged: number;
  failure: string | null;
}

/**
 * A budget (issue 38, decision 0088): its rows in every other table carry its owner columns, a
 * user's own for their personal budget, ('urn:leftover:budget', id) for a shared one. Owned by
 * server/budgets/budget-store.ts.
 */
export interface BudgetsTable extends OwnerColumns {
  id: string;
  name: string;
  /** 1 for a user's personal budget (never shared, never deleted), else 0. */
  personal: number;
  created_at: string;
}

/** Who is in a budget, with what role. */
export interface BudgetMembersTable {
  /** What the members' calls name a member by: never their subject. */
  id: string;
  budget_id: string;
  member_iss: string;
  member_sub: string;
  /** OWNER, EDITOR or VIEWER. */
  role: string;
  /** The provider's name or preferred_username when they joined or last called; null when it gave neither. */
  display_name: string | null;
  joined_at: string;
  /** 1: their day's messages cover this budget's shortfalls and bills due; 0: they turned it off (decision 0099). */
  notify: Generated<number>;
}

/** An invitation to a budget; owned by server/budgets/invitation-store.ts. */
export interface BudgetInvitationsTable {
  id: string;
  budget_id: string;
  /** Hex SHA-256 of the token: the token itself is never stored. */
  token_hash: string;
  role: string;
  invited_by_iss: string;
  invited_by_sub: string;
  invited_by_name: string | null;
  created_at: string;
  expires_at: string;
  /** PENDING, ACCEPTED, DECLINED or REVOKED. */
  state: string;
  closed_at: string | null;
}

/** One invitation mail, by its sender (decision 0105); owned by server/budgets/invitation-mail-limits.ts. */
export interface InvitationMailsTable {
  id: string;
  /** Hex SHA-256 of the sender's issuer and subject. */
  sender_key: string;
  sent_at: string;
}

export interface DatabaseSchema {
  accounts: AccountsTable;
  deposits: DepositsTable;
  expenses: ExpensesTable;
  ledgers: LedgersTable;
  ledger_transactions: LedgerTransactionsTable;
  ledger_month_totals: LedgerMonthTotalsTable;
  ledger_row_blocks: LedgerRowBlocksTable;
  ledger_skipped_occurrences: LedgerSkippedOccurrencesTable;
  ledger_imported_rows: LedgerImportedRowsTable;
  statement_accounts: StatementAccountsTable;
  undo_entries: UndoEntriesTable;
  user_settings: UserSettingsTable;
  notification_channels: NotificationChannelsTable;
  notification_links: NotificationLinksTable;
  notification_addresses: NotificationAddressesTable;
  notification_outbox: NotificationOutboxTable;
  push_vapid_keys: PushVapidKeysTable;
  request_budget_counts: RequestBudgetCountsTable;
  bank_connections: BankConnectionsTable;
  bank_accounts: BankAccountsTable;
  ledger_bank_closed_keys: LedgerBankClosedKeysTable;
  bank_sync_log: BankSyncLogTable;
  budgets: BudgetsTable;
  budget_members: BudgetMembersTable;
  budget_invitations: BudgetInvitationsTable;
  activity_entries: ActivityEntriesTable;
  invitation_mails: InvitationMailsTable;
}
