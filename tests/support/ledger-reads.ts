/**
 * A Kysely plugin that counts the app's queries naming a ledger's tables (its accounts, ledgers,
 * rows, month totals): the notification tests hand it to the app to prove that a retry, or a round
 * in which nobody's day is due, reads no ledger (issue 34 item 3).
 */
import type { KyselyPlugin, PluginTransformQueryArgs, PluginTransformResultArgs, QueryResult, RootOperationNode, UnknownRow } from 'kysely';

const LEDGER_TABLES = /"(accounts|ledgers|ledger_transactions|ledger_month_totals)"|\b(from|join) (accounts|ledgers|ledger_transactions)\b/;

export class LedgerReads implements KyselyPlugin {
  count = 0;

  reset(): void {
    this.count = 0;
  }

  transformQuery(args: PluginTransformQueryArgs): RootOperationNode {
    if (LEDGER_TABLES.test(JSON.stringify(args.node))) this.count += 1;
    return args.node;
  }

  async transformResult(args: PluginTransformResultArgs): Promise<QueryResult<UnknownRow>> {
    return args.result;
  }
}
