/**
 * "Import Statement": choose a CSV, OFX or QFX file, see what importing it would do (issue 14),
 * change any proposal, and import. The file is read as text here and checked by the server; the
 * section makes the calls (decision 0017), so a refusal reaches "Whoops!" and the dialog marks it.
 *
 * With more than one account (issue 25 item 6, decision 0046) an "Account" field says whose ledger
 * the statement goes into: at first the one shown; for an OFX or QFX file whose bank account was
 * imported before, the account it went into then, unless the user has chosen one.
 */
import { useId, useMemo, useState } from 'react';
import { Alert, Form } from 'react-bootstrap';
import type { LedgerTransactionView, LedgerView } from '../../../contract/codecs.js';
import type { StatementPreviewView } from '../../../contract/statement-codecs.js';
import { csvMappingSchema, type ImportDecision } from '../../../contract/statement-requests.js';
import type { CsvMapping } from '../../../domain/statements/csv-statement.js';
import { type AskOutcome, checkForm, type FieldErrors } from '../../components/field-errors.js';
import { ChoiceSelect } from '../../components/form-controls.js';
import { FormField } from '../../components/form-field.js';
import { ModalDialog } from '../../components/modal-dialog.js';
import { ModalForm } from '../../components/modal-form.js';
import { useDialogSubmit } from '../../components/use-dialog-submit.js';
import { previewReconciliationText } from '../../reconciliation/reconciliation-text.js';
import type { ImportStatementDialogProps, StatementAccounts } from '../section-props.js';
import { CsvMappingFields, EMPTY_MAPPING, mappingCandidate, type MappingValues, mappingValuesOf } from './csv-mapping-fields.js';
import { rememberedMapping, rememberMapping } from './csv-mapping-memory.js';
import { decisionsOf, matchCandidates, type RowChoice } from './statement-choices.js';
import { fileSizeProblem, readStatementText, STATEMENT_FILE_TYPES, type StatementSizeLimit } from './statement-file-text.js';
import { StatementPreviewTable } from './statement-preview-table.js';

interface StatementText {
  readonly fileName: string;
  readonly content: string;
}

type CsvColumns = NonNullable<StatementPreviewView['columns']>;
type FileAccount = NonNullable<StatementPreviewView['fileAccount']>;

/** A preview with the ledger it was made against: the rows its matches name and the user may pick instead. */
interface AccountPreview {
  readonly answer: StatementPreviewView;
  readonly ledger: LedgerView;
}

/** What the Account field says under it: which bank account the file is for, and where it went before. */
export function accountHelp(fileAccount: FileAccount | null, accounts: StatementAccounts): string {
  if (fileAccount === null) return "The statement is matched against this account's ledger only.";
  const before = accounts.choices.find((account) => account.id === fileAccount.accountId);
  return before
    ? `This file is for account …${fileAccount.ending}, imported into ${before.name} before.`
    : `This file is for account …${fileAccount.ending}. The account you import it into will be chosen for it next time.`;
}

/** Where each of the server's field messages shows; what fits nowhere shows above the preview. */
const FILE_FIELDS = new Set(['content', 'fileName']);
const isMappingField = (key: string) => key === 'mapping' || key.startsWith('mapping.');

interface SizedImportStatementDialogProps extends ImportStatementDialogProps {
  /**
   * The server's size limit, handed over by lazy-import-statement-dialog.tsx: importing the
   * contract's statement module here, when the first view already has it, makes the bundler split
   * the first view (benchmark 4a).
   */
  readonly sizeLimit: StatementSizeLimit;
}

export function ImportStatementDialog({
  show,
  ledger,
  accounts,
  sizeLimit,
  onReadLedger,
  onPreview,
  onImport,
  onClose,
}: SizedImportStatementDialogProps) {
  const idPrefix = useId();
  const [statement, setStatement] = useState<StatementText | null>(null);
  const [preview, setPreview] = useState<StatementPreviewView | null>(null);
  /** Whose ledger the statement goes into: undefined with one account (the one shown). */
  const [accountId, setAccountId] = useState<string | undefined>(accounts?.shownId);
  /** Once the user chose the account, a file's remembered account no longer replaces it. */
  const [accountChosen, setAccountChosen] = useState(false);
  /** The chosen file's bank account, as its first preview named it (with more than one account). */
  const [fileAccount, setFileAccount] = useState<FileAccount | null>(null);
  /** The ledger the preview was made against: the one shown, or the chosen account's. */
  const [previewLedger, setPreviewLedger] = useState<LedgerView>(ledger);
  const [columns, setColumns] = useState<CsvColumns | null>(null);
  /** The mapping the preview was made with, sent again with the import. */
  const [mapping, setMapping] = useState<CsvMapping | undefined>(undefined);
  /** Non-null while the column choice shows. */
  const [mappingValues, setMappingValues] = useState<MappingValues | null>(null);
  const [usedRemembered, setUsedRemembered] = useState(false);
  const [changes, setChanges] = useState<ReadonlyMap<number, RowChoice>>(new Map());
  /** Errors are keyed by the request's paths, except a decision's refusal, keyed `row.{index}`. */
  const { sending, errors, setErrors, send, ask, drop } = useDialogSubmit();

  const ledgerRows = useMemo(
    () => new Map<string, LedgerTransactionView>(previewLedger.transactions.map((row) => [row.id, row])),
    [previewLedger],
  );
  const candidatesOf = useMemo(() => matchCandidates(previewLedger.transactions), [previewLedger]);

  /** The ledger a statement going into that account is matched against: the one shown is at hand, another is read. */
  async function ledgerOf(account: string | undefined): Promise<AskOutcome<LedgerView>> {
    if (account === undefined || account === accounts?.shownId || onReadLedger === undefined) return { ok: true, answer: ledger };
    const read = await onReadLedger(account);
    // Without a ledger the preview itself is refused, with the server's words: nothing more to say here.
    if (!read.ok || read.answer === null) return { ok: false, fields: read.ok ? {} : read.fields };
    return { ok: true, answer: read.answer };
  }

  /** The preview in that account, beside the read of its ledger. */
  async function previewIn(account: string | undefined, request: StatementText & { readonly mapping?: CsvMapping }) {
    const [answer, against] = await Promise.all([onPreview(request, account), ledgerOf(account)]);
    if (!answer.ok) return answer;
    if (!against.ok) return against;
    return { ok: true as const, answer: { answer: answer.answer, ledger: against.answer } };
  }

  /** The account the file's bank account went into before, when it is one to choose from. */
  function rememberedAccount(answer: StatementPreviewView): string | undefined {
    const remembered = answer.fileAccount?.accountId;
    return accounts?.choices.some((account) => account.id === remembered) ? (remembered ?? undefined) : undefined;
  }

  function showPreview({ answer, ledger: against }: AccountPreview, used: CsvMapping | undefined) {
    setPreviewLedger(against);
    setPreview(answer);
    setColumns(answer.columns ?? null);
    setMapping(used);
    setMappingValues(null);
    setChanges(new Map());
  }

  /** Reads the chosen file as text and asks for its preview; a file the browser cannot read is marked on the file field. */
  async function previewFile(
    file: File,
    account: string | undefined,
  ): Promise<AskOutcome<{ readonly text: StatementText; readonly preview: AccountPreview }>> {
    let content: string;
    try {
      content = await readStatementText(file);
    } catch {
      return { ok: false, fields: { content: 'The file could not be read: choose it again.' } };
    }
    const text = { fileName: file.name, content };
    const outcome = await previewIn(account, text);
    return outcome.ok ? { ok: true, answer: { text, preview: outcome.answer } } : outcome;
  }

  async function chooseFile(file: File | undefined) {
    // The answer for a file the user has since replaced is dropped.
    drop();
    setStatement(null);
    setPreview(null);
    setColumns(null);
    setMapping(undefined);
    setMappingValues(null);
    setUsedRemembered(false);
    setChanges(new Map());
    setFileAccount(null);
    setErrors({});
    if (file === undefined) return;
    const tooLarge = fileSizeProblem(file, sizeLimit);
    if (tooLarge !== null) {
      setErrors({ content: tooLarge });
      return;
    }
    const read = await ask(() => previewFile(file, accountId));
    if (read === null || !read.ok) return;
    const { text, preview: first } = read.answer;
    const { answer } = first;
    setStatement(text);
    setFileAccount(answer.fileAccount ?? null);
    // The file's bank account went into another account before: that one is chosen, unless the user chose.
    const remembered = rememberedAccount(answer);
    if (remembered !== undefined && remembered !== accountId && !accountChosen) {
      setAccountId(remembered);
      const again = await ask(() => previewIn(remembered, text));
      if (again !== null && again.ok) showPreview(again.answer, undefined);
      return;
    }
    if (!answer.needsMapping || answer.columns === undefined) {
      showPreview(first, undefined);
      return;
    }
    setColumns(answer.columns);
    const rememberedColumns = rememberedMapping(answer.columns);
    if (rememberedColumns === null) {
      setMappingValues(EMPTY_MAPPING);
      return;
    }
    const again = await ask(() => previewIn(accountId, { ...text, mapping: rememberedColumns }));
    if (again === null) return;
    if (again.ok && !again.answer.answer.needsMapping) {
      showPreview(again.answer, rememberedColumns);
      setUsedRemembered(true);
      return;
    }
    // The remembered choice no longer reads this file: the user chooses again, starting from it.
    setMappingValues(mappingValuesOf(rememberedColumns));
  }

  /** The user chose the account: the file, when there is one, is previewed in it again. */
  async function chooseAccount(next: string) {
    setAccountChosen(true);
    setAccountId(next);
    // While columns are being chosen, the Preview button previews in the account then chosen.
    if (statement === null || mappingValues !== null) return;
    setPreview(null);
    setChanges(new Map());
    setErrors({});
    const again = await ask(() => previewIn(next, { ...statement, ...(mapping && { mapping }) }));
    if (again !== null && again.ok) showPreview(again.answer, mapping);
  }

  async function previewWithMapping() {
    if (statement === null || columns === null || mappingValues === null) return;
    const checked = checkForm(csvMappingSchema, mappingCandidate(mappingValues));
    if (!checked.ok) {
      setErrors(
        Object.fromEntries(
          Object.entries(checked.fields).map(([key, message]) => [key === 'form' ? 'mapping' : `mapping.${key}`, message]),
        ),
      );
      return;
    }
    setErrors({});
    const outcome = await ask(() => previewIn(accountId, { ...statement, mapping: checked.value }));
    if (outcome === null || !outcome.ok) return;
    rememberMapping(columns, checked.value);
    showPreview(outcome.answer, checked.value);
  }

  async function importStatement() {
    if (statement === null || preview === null) return;
    const decisions = decisionsOf(preview.rows, changes);
    setErrors({});
    await send(async () => {
      const outcome = await onImport({ ...statement, ...(mapping && { mapping }), ...(decisions.length > 0 && { decisions }) }, accountId);
      return outcome && withDecisionRows(outcome, decisions);
    });
  }

  function choose(index: number, choice: RowChoice) {
    setChanges((current) => new Map(current).set(index, choice));
    const key = `row.${index}`;
    if (errors[key] !== undefined) setErrors(Object.fromEntries(Object.entries(errors).filter(([other]) => other !== key)));
  }

  const fileError = errors.content ?? errors.fileName;
  const showsMapping = mappingValues !== null && columns !== null;
  const unplaced = Object.entries(errors).filter(
    ([key]) => !FILE_FIELDS.has(key) && !key.startsWith('row.') && !(showsMapping && isMappingField(key)),
  );
  const ready = statement !== null && preview !== null && !showsMapping;

  return (
    <ModalDialog show={show} title="Import Statement" size="xl" onClose={onClose}>
      <ModalForm submitLabel="Import" submitting={sending || !ready} onSubmit={importStatement} onCancel={onClose}>
        {accounts && accountId !== undefined && (
          <FormField id={`${idPrefix}-account`} label="Account" error={undefined} help={accountHelp(fileAccount, accounts)}>
            {(control) => (
              <ChoiceSelect
                {...control}
                choices={accounts.choices.map((account) => account.id)}
                labelOf={(id) => accounts.choices.find((account) => account.id === id)?.name ?? id}
                withPlaceholder={false}
                disabled={sending}
                value={accountId}
                onValueChange={(next) => void chooseAccount(next)}
              />
            )}
          </FormField>
        )}
        <FormField
          id={`${idPrefix}-file`}
          label="Statement file"
          error={fileError}
          help="A CSV, OFX or QFX file from your bank, up to 2 MB. Nothing changes until you press Import."
        >
          {(control) => (
            <Form.Control
              {...control}
              type="file"
              accept={STATEMENT_FILE_TYPES}
              onChange={(event) => void chooseFile((event.target as HTMLInputElement).files?.[0])}
            />
          )}
        </FormField>
        {unplaced.length > 0 && (
          <Alert variant="danger">
            {unplaced.map(([key, message]) => (
              <p key={key} className="mb-0">
                {message}
              </p>
            ))}
          </Alert>
        )}
        {showsMapping && (
          <CsvMappingFields
            idPrefix={`${idPrefix}-mapping`}
            columns={columns}
            values={mappingValues}
            errors={errors}
            disabled={sending}
            onChange={setMappingValues}
            onPreview={() => void previewWithMapping()}
          />
        )}
        {ready && preview !== null && (
          <section aria-label="Preview">
            {mapping !== undefined && (
              <p className="small">
                {usedRemembered && 'Columns as you chose them before for a file of this shape. '}
                <button
                  type="button"
                  className="btn btn-link btn-sm p-0 align-baseline"
                  onClick={() => setMappingValues(mappingValuesOf(mapping))}
                >
                  Change columns
                </button>
              </p>
            )}
            {preview.reconciliation !== null && <p className="fw-semibold">{previewReconciliationText(preview.reconciliation)}</p>}
            <StatementPreviewTable
              idPrefix={idPrefix}
              rows={preview.rows}
              changes={changes}
              onChoose={choose}
              ledgerRows={ledgerRows}
              candidatesOf={candidatesOf}
              errors={errors}
              disabled={sending}
            />
          </section>
        )}
      </ModalForm>
    </ModalDialog>
  );
}

/** The server names a refused decision by its place in the list sent; the preview marks the row it is about. */
function withDecisionRows(fields: FieldErrors, decisions: readonly ImportDecision[]): FieldErrors {
  return Object.fromEntries(
    Object.entries(fields).map(([key, message]) => {
      const position = /^decisions\.(\d+)/.exec(key)?.[1];
      const decision = position === undefined ? undefined : decisions[Number(position)];
      return [decision === undefined ? key : `row.${decision.index}`, message];
    }),
  );
}
