/**
 * Every row of every table (Kysely's own migration tables included), in a fixed order, as one
 * string: two snapshots are equal exactly when nothing in the database changed, but for the
 * request budgets' counters, which every call moves on PostgreSQL, refused calls included
 * (decision 0071): "nothing changed" means nothing that a call does for its caller.
 */
import {
  type Kysely,
  type KyselyPlugin,
  type PluginTransformQueryArgs,
  type PluginTransformResultArgs,
  type QueryResult,
  type RootOperationNode,
  sql,
  type UnknownRow,
} from 'kysely';

/** Left out of every snapshot: the request budgets' counters (server/operations/request-budget-store.ts). */
const COUNTERS_OF_EVERY_CALL = new Set(['request_budget_counts']);

export async function databaseSnapshot<Schema>(db: Kysely<Schema>, kind: 'sqlite' | 'postgres'): Promise<string> {
  const tables = (await tablesOf(db, kind)).filter((table) => !COUNTERS_OF_EVERY_CALL.has(table.name));
  if (tables.length === 0) throw new Error('no tables to snapshot');
  const dump: Record<string, unknown[]> = {};
  for (const table of [...tables].sort((a, b) => a.name.localeCompare(b.name))) {
    // Ordered by every column, left to right: a total order without knowing the keys.
    const ordinals = sql.join(table.columns.map((_column, index) => sql.lit(index + 1)));
    const selected = table.columns.map((column) => column.name);
    const result =
      await sql<UnknownRow>`select ${sql.join(selected.map((name) => sql.ref(name)))} from ${sql.table(table.name)} order by ${ordinals}`.execute(
        db,
      );
    dump[table.name] = result.rows;
  }
  return JSON.stringify(dump);
}

interface SnapshotTable {
  readonly name: string;
  readonly columns: readonly { readonly name: string }[];
}

/**
 * The tables and their columns in column order. On PostgreSQL only those of the schema on the
 * search path, each test file's own, read from information_schema: kysely's introspection reads
 * every schema and fails on one another run drops meanwhile.
 */
async function tablesOf<Schema>(db: Kysely<Schema>, kind: 'sqlite' | 'postgres'): Promise<SnapshotTable[]> {
  if (kind === 'sqlite') return db.introspection.getTables({ withInternalKyselyTables: true });
  const { rows } = await sql<{ table: string; column: string }>`
    select table_name as "table", column_name as "column" from information_schema.columns
    where table_schema = current_schema() order by table_name, ordinal_position`.execute(db);
  const byName = new Map<string, { name: string }[]>();
  for (const { table, column } of rows) {
    const columns = byName.get(table) ?? [];
    columns.push({ name: column });
    byName.set(table, columns);
  }
  return [...byName].map(([name, columns]) => ({ name, columns }));
}

/** Counts the queries a Kysely instance runs (transactions included); nothing else changes. */
export class QueryCounter implements KyselyPlugin {
  private seen = 0;

  get count(): number {
    return this.seen;
  }

  transformQuery(args: PluginTransformQueryArgs): RootOperationNode {
    this.seen += 1;
    return args.node;
  }

  async transformResult(args: PluginTransformResultArgs): Promise<QueryResult<UnknownRow>> {
    return args.result;
  }
}
