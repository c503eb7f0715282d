/**
 * What the app shell hands every data section: its info as last loaded (null when it could not
 * be loaded), a way to replace it with what a call answered, and a way to report a failed call
 * (the shell shows "Whoops!"). Features never import each other.
 */
import type { LedgerView } from '../../contract/codecs.js';
import type { StatementPreviewView } from '../../contract/statement-codecs.js';
import type { StatementImportRequest, StatementPreviewRequest } from '../../contract/statement-requests.js';
import type { AskOutcome, SaveOutcome } from '../components/field-errors.js';

export interface SectionProps<Info> {
  readonly info: Info | null;
  readonly onChange: (info: Info) => void;
  readonly onError: (error: unknown) => void;
}

/** An account a statement may go into, as the Import Statement dialog's "Account" field lists it. */
export interface StatementAccountChoice {
  readonly id: string;
  readonly name: string;
}

/**
 * The user's accounts, handed over only when there is a choice (more than one; issue 25 item 6,
 * decision 0046): the dialog then asks which one the statement goes into.
 */
export interface StatementAccounts {
  readonly choices: readonly StatementAccountChoice[];
  /** The account whose ledger is shown: the dialog's `ledger`, and the Account field's first choice. */
  readonly shownId: string;
}

/**
 * The Import Statement dialog as the Ledger section opens it: the statements feature provides it,
 * the shell hands it to the section, and the section makes the calls (decision 0032). `accountId`
 * names the account the user chose; left out, it is the one shown.
 */
export interface ImportStatementDialogProps {
  readonly show: boolean;
  /** The ledger shown: the rows a statement row may match instead, while the statement goes there. */
  readonly ledger: LedgerView;
  /** With more than one account: the Account field's choices. */
  readonly accounts?: StatementAccounts;
  /** The ledger of another account than the one shown (null while it has none), for its rows. */
  readonly onReadLedger?: (accountId: string) => Promise<AskOutcome<LedgerView | null>>;
  readonly onPreview: (request: StatementPreviewRequest, accountId?: string) => Promise<AskOutcome<StatementPreviewView>>;
  /** Imports; answers undefined when it worked and the caller closes the dialog. */
  readonly onImport: (request: StatementImportRequest, accountId?: string) => Promise<SaveOutcome>;
  readonly onClose: () => void;
}
