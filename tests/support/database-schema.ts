/**
 * A database's schema as its own catalogue tells it (Kysely's bookkeeping tables included), in a
 * fixed order and free of the test's PostgreSQL schema name: two equal answers mean the same tables,
 * columns, types, defaults, keys, constraints and indexes.
 */
import { type Kysely, sql } from 'kysely';
import type { DatabaseKind } from './test-databases.js';

/** SQLite keeps each table's and index's CREATE statement as written (rewritten by ALTER TABLE): the schema, whole. */
export interface SqliteSchema {
  readonly objects: { type: string; name: string; table: string; sql: string | null }[];
}

export interface PostgresSchema {
  readonly columns: {
    table: string;
    column: string;
    position: number;
    type: string;
    length: number | null;
    nullable: string;
    default: string | null;
  }[];
  /** Primary keys, unique constraints and foreign keys, with what they say (pg_get_constraintdef). */
  readonly constraints: { table: string; name: string; type: string; definition: string }[];
  readonly indexes: { table: string; name: string; definition: string }[];
}

export type DatabaseSchemaDump = SqliteSchema | PostgresSchema;

export async function schemaOf<Schema>(db: Kysely<Schema>, kind: DatabaseKind): Promise<DatabaseSchemaDump> {
  if (kind === 'sqlite') {
    const objects = await sql<SqliteSchema['objects'][number]>`
      select type, name, tbl_name as "table", sql from sqlite_master where name not like 'sqlite_%' order by type, name`.execute(db);
    return { objects: objects.rows };
  }
  // Each test file has a PostgreSQL schema of its own, the connection's current one.
  const columns = await sql<PostgresSchema['columns'][number]>`
    select table_name as "table", column_name as "column", ordinal_position as "position", data_type as "type",
      character_maximum_length as "length", is_nullable as "nullable", column_default as "default"
    from information_schema.columns where table_schema = current_schema()
    order by table_name, ordinal_position`.execute(db);
  const constraints = await sql<PostgresSchema['constraints'][number]>`
    select rel.relname as "table", con.conname as "name", con.contype as "type", pg_get_constraintdef(con.oid) as "definition"
    from pg_constraint con join pg_class rel on rel.oid = con.conrelid join pg_namespace space on space.oid = rel.relnamespace
    where space.nspname = current_schema() order by rel.relname, con.conname`.execute(db);
  const indexes = await sql<{ table: string; name: string; definition: string; schema: string }>`
    select tablename as "table", indexname as "name", indexdef as "definition", schemaname as "schema"
    from pg_indexes where schemaname = current_schema() order by tablename, indexname`.execute(db);
  return {
    columns: columns.rows,
    constraints: constraints.rows,
    // An index's definition names its table with the schema ("ON test_1a2b.deposits"): left out, so schemas compare.
    indexes: indexes.rows.map(({ table, name, definition, schema }) => ({
      table,
      name,
      definition: definition.replace(` ON ${schema}.`, ' ON '),
    })),
  };
}
