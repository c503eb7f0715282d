/**
 * The statements feature's face to the shell, which hands it to the Ledger section (features never
 * import each other): the Import Statement dialog, whose code loads on demand (decision 0009).
 */
import { MAX_STATEMENT_CHARACTERS, STATEMENT_TOO_LARGE } from '../../../contract/statement-limits.js';
import { lazyDialog } from '../../components/lazy-dialog.js';
import type { ImportStatementDialogProps } from '../section-props.js';

const LoadedDialog = lazyDialog(() => import('./import-statement-dialog.js').then((module) => module.ImportStatementDialog));

/** Up to 2 MB: a file of that many bytes decodes to at most the server's limit in characters (decision 0021). */
const STATEMENT_SIZE_LIMIT = { maxBytes: MAX_STATEMENT_CHARACTERS, message: STATEMENT_TOO_LARGE };

export function ImportStatementDialog(props: ImportStatementDialogProps) {
  return <LoadedDialog {...props} sizeLimit={STATEMENT_SIZE_LIMIT} />;
}
