/**
 * What the app shell hands every data section: its info as last loaded (null when it could not
 * be loaded), a way to replace it with what a call answered, and a way to report a failed call
 * (the shell shows "Whoops!"). Features never import each other.
 */
import type { LedgerView, StatementPreviewView } from '../../contract/codecs.js';
import type { StatementImportRequest, StatementPreviewRequest } from '../../contract/statement-requests.js';
import type { AskOutcome, SaveOutcome } from '../components/field-errors.js';

export interface SectionProps<Info> {
  readonly info: Info | null;
  readonly onChange: (info: Info) => void;
  readonly onError: (error: unknown) => void;
}

/**
 * The Import Statement dialog as the Ledger section opens it: the statements feature provides it,
 * the shell hands it to the section, and the section makes both calls (decision 0032).
 */
export interface ImportStatementDialogProps {
  readonly show: boolean;
  /** The ledger the statement goes into: the rows a statement row may match instead. */
  readonly ledger: LedgerView;
  readonly onPreview: (request: StatementPreviewRequest) => Promise<AskOutcome<StatementPreviewView>>;
  /** Imports; answers undefined when it worked and the caller closes the dialog. */
  readonly onImport: (request: StatementImportRequest) => Promise<SaveOutcome>;
  readonly onClose: () => void;
}
