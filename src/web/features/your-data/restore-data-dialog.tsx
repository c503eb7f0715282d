/**
 * Restore from file (issue 15): reads a "Download my data" file in the page, says what it holds and
 * that it replaces everything, and sends it only when the user confirms. The server checks all of
 * it; a refusal names the first problem and changes nothing.
 */
import { type ChangeEvent, useId, useState } from 'react';
import { Alert, Button, Form, Modal } from 'react-bootstrap';
import { RESTORE_BODY_LIMIT_BYTES } from '../../../contract/your-data.js';
import { formatDate, isIsoDate } from '../../../domain/calendar-date.js';
import type { SaveOutcome } from '../../components/field-errors.js';
import { ModalDialog } from '../../components/modal-dialog.js';
import { useDialogSubmit } from '../../components/use-dialog-submit.js';

const MEGABYTE = 1024 * 1024;

interface ExportSummary {
  /** A version 1 file holds one (the primary account's); a version 2 file lists them (decision 0042). */
  readonly accounts: number;
  readonly deposits: number;
  readonly expenses: number;
  /** Every ledger's rows together; null when the file holds no ledger at all. */
  readonly transactions: number | null;
  readonly exportedAt: string;
}

/** The rows of a ledger as the file holds it, or null when it holds none. */
function rowsOf(ledger: unknown): number | null {
  if (typeof ledger !== 'object' || ledger === null) return null;
  const rows = (ledger as { transactions?: unknown }).transactions;
  return Array.isArray(rows) ? rows.length : null;
}

/** Enough of the document to tell the user what it holds; everything else is the server's to check. */
function summaryOf(document: unknown): ExportSummary | null {
  if (typeof document !== 'object' || document === null) return null;
  const fields = document as Record<string, unknown>;
  if (fields.format !== 'leftover-export' || !Array.isArray(fields.deposits) || !Array.isArray(fields.expenses)) return null;
  const accounts: readonly unknown[] | null = Array.isArray(fields.accounts) ? fields.accounts : null;
  const ledgers = accounts ? accounts.map((account) => rowsOf((account as { ledger?: unknown } | null)?.ledger)) : [rowsOf(fields.ledger)];
  const held = ledgers.filter((rows): rows is number => rows !== null);
  return {
    accounts: accounts ? accounts.length : 1,
    deposits: fields.deposits.length,
    expenses: fields.expenses.length,
    transactions: held.length === 0 ? null : held.reduce((total, rows) => total + rows, 0),
    exportedAt: typeof fields.exportedAt === 'string' ? exportDay(fields.exportedAt) : 'an unknown date',
  };
}

/** 'Mon, Feb 3, 2031' from '2031-02-03T04:05:06.000Z' (the day in UTC, as the server wrote it). */
function exportDay(exportedAt: string): string {
  const day = exportedAt.slice(0, 10);
  return isIsoDate(day) ? formatDate(day) : 'an unknown date';
}

function plural(count: number, word: string): string {
  return `${count} ${word}${count === 1 ? '' : 's'}`;
}

interface RestoreDataDialogProps {
  readonly show: boolean;
  /** Sends the chosen document; answers undefined when it worked and the panel closes the dialog, else what to say. */
  readonly onRestore: (document: unknown) => Promise<SaveOutcome>;
  readonly onClose: () => void;
}

/** The panel remounts it per opening, so it always opens with no file chosen. */
export function RestoreDataDialog({ show, onRestore, onClose }: RestoreDataDialogProps) {
  const fileId = useId();
  const [document, setDocument] = useState<{ readonly content: unknown; readonly summary: ExportSummary } | null>(null);
  const { sending, errors, setErrors, send } = useDialogSubmit();

  async function choose(event: ChangeEvent<HTMLInputElement>) {
    setDocument(null);
    setErrors({});
    const file = event.target.files?.[0];
    if (!file) return;
    // The server's limit for a restore: a larger file is refused before it is read.
    if (file.size > RESTORE_BODY_LIMIT_BYTES) {
      setErrors({ form: `The file is larger than ${RESTORE_BODY_LIMIT_BYTES / MEGABYTE} MB: it is not a Leftover export.` });
      return;
    }
    let content: unknown;
    try {
      content = JSON.parse(await file.text());
    } catch {
      content = null;
    }
    const summary = summaryOf(content);
    if (summary === null) setErrors({ form: 'This file is not a Leftover export. "Download my data" makes one.' });
    else setDocument({ content, summary });
  }

  async function restore() {
    if (document === null) return;
    setErrors({});
    await send(() => onRestore(document.content));
  }

  const summary = document?.summary;
  return (
    <ModalDialog show={show} title="Restore From File" onClose={onClose} centered>
      <Modal.Body>
        <Form.Group controlId={fileId} className="mb-3">
          <Form.Label>Backup file</Form.Label>
          <Form.Control
            type="file"
            accept="application/json,.json"
            onChange={(event: ChangeEvent<HTMLInputElement>) => void choose(event)}
          />
        </Form.Group>
        {summary && (
          <p>
            Restoring replaces all your data (your deposits, your expenses and your ledger) with this file&apos;s:{' '}
            {plural(summary.deposits, 'deposit')}, {plural(summary.expenses, 'expense')} and{' '}
            {summary.transactions === null
              ? 'no ledger'
              : summary.accounts > 1
                ? `${plural(summary.accounts, 'account')} whose ledgers hold ${plural(summary.transactions, 'transaction')}`
                : `a ledger of ${plural(summary.transactions, 'transaction')}`}
            , exported on {summary.exportedAt}. This cannot be undone.
          </p>
        )}
        {errors.form && (
          <Alert variant="danger" className="mb-0">
            {errors.form}
          </Alert>
        )}
      </Modal.Body>
      <Modal.Footer>
        <Button variant="outline-secondary" onClick={onClose}>
          Cancel
        </Button>
        <Button variant="danger" onClick={() => void restore()} disabled={document === null || sending}>
          Replace my data
        </Button>
      </Modal.Footer>
    </ModalDialog>
  );
}
