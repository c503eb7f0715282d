/**
 * A Kysely plugin that counts the app's INSERT, UPDATE and DELETE statements: tests hand it to the
 * app to prove that a read writes nothing (on SQLite every write, even one that changes no row,
 * waits for the database's one writer).
 */
import type { KyselyPlugin, PluginTransformQueryArgs, PluginTransformResultArgs, QueryResult, RootOperationNode, UnknownRow } from 'kysely';

const WRITE_KINDS: ReadonlySet<string> = new Set(['InsertQueryNode', 'UpdateQueryNode', 'DeleteQueryNode']);

export class WriteStatements implements KyselyPlugin {
  count = 0;

  transformQuery(args: PluginTransformQueryArgs): RootOperationNode {
    if (WRITE_KINDS.has(args.node.kind)) this.count += 1;
    return args.node;
  }

  async transformResult(args: PluginTransformResultArgs): Promise<QueryResult<UnknownRow>> {
    return args.result;
  }
}
