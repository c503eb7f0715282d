/**
 * The tables as the released migrations 0001 and 0002 made them: upgrade tests write rows in this
 * shape before running the migrations that came after. Frozen on purpose: never edit it to follow
 * a later migration.
 */
export interface ReleasedSchema {
  deposits: {
    id: string;
    owner_iss: string;
    owner_sub: string;
    name: string;
    type: string;
    day: string;
    amount_cents: number;
    start_date: string;
    frequency: string;
    created_at: string;
  };
  expenses: {
    id: string;
    owner_iss: string;
    owner_sub: string;
    name: string;
    type: string;
    day: number;
    amount_cents: number;
    end_date: string | null;
    created_at: string;
  };
  ledgers: {
    id: string;
    owner_iss: string;
    owner_sub: string;
    start_date: string;
    end_date: string;
    opening_balance_cents: number;
    next_sequence: number;
    created_at: string;
  };
  ledger_transactions: {
    id: string;
    ledger_id: string;
    owner_iss: string;
    owner_sub: string;
    sequence: number;
    date: string;
    name: string;
    type: string;
    amount_cents: number;
    status: string;
    version: number;
  };
}
