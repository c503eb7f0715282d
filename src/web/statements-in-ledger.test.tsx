/**
 * The statements feature as the shell composes it into the Ledger section: the header's Import
 * opens its dialog, the section makes the calls, and the header reconciles with the bank after an
 * import. Here beside the shell, because a feature's own tests may not import another feature.
 */
import { screen, waitFor, within } from '@testing-library/react';
import { userEvent } from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { LedgerInfoView } from '../contract/codecs.js';
import type { StatementImportView } from '../contract/statement-codecs.js';
import type { StatementImport, StatementPreview, StatementRowInfo } from '../contract/statements.js';
import { ApiCallError } from './api/api-client.js';
import {
  ledgerInfo,
  NO_SCHEDULES,
  renderLedger as renderLedgerSection,
  setWindowWidth,
  transaction,
} from './features/ledger/ledger-test-support.js';
import { CSV_MAPPING_STORAGE_KEY } from './features/statements/csv-mapping-memory.js';
import { ImportStatementDialog } from './features/statements/lazy-import-statement-dialog.js';
import { reconciliationAnswer, statementPreviewAnswer } from './test-support/answers.js';
import { fakeApiClient, type FakeApiClient } from './test-support/fake-api-client.js';

/** As the shell does: the Ledger section with the statements feature's dialog. */
const renderLedger = (info: LedgerInfoView, api: FakeApiClient) =>
  renderLedgerSection(info, api, NO_SCHEDULES, null, ImportStatementDialog);

const JSDOM_WIDTH = window.innerWidth;
beforeEach(() => {
  setWindowWidth(1280);
  window.localStorage.clear();
});
afterEach(() => setWindowWidth(JSDOM_WIDTH));

const rent = transaction({ id: 'rent', name: 'Rent', date: '2026-03-01', type: 'D', amount: 1200, status: 'PENDING' });
const otherRent = transaction({ id: 'rent-april', name: 'Rent', date: '2026-04-01', type: 'D', amount: 1200, status: 'PENDING' });
const clearedRent = transaction({ id: 'rent-may', name: 'Rent', date: '2026-05-01', type: 'D', amount: 1200, status: 'CLEARED' });
const LEDGER = ledgerInfo([rent, otherRent, clearedRent]);

function row(fields: Partial<StatementRowInfo> & Pick<StatementRowInfo, 'index' | 'action'>): StatementRowInfo {
  return { date: '2026-03-02', description: 'OAKWOOD APTS', type: 'D', amount: 1200, ...fields };
}

const PREVIEW: StatementPreview = {
  format: 'ofx',
  needsMapping: false,
  rows: [
    row({ index: 0, action: 'match', matchId: 'rent' }),
    row({ index: 1, action: 'new', date: '2026-03-05', description: '<b>COFFEE</b> & CO', amount: 4.75 }),
    row({ index: 2, action: 'duplicate', date: '2026-03-06', description: 'GROCER', amount: 54.23 }),
    row({ index: 3, action: 'outside', date: '2027-01-02', description: 'LATE FEE', amount: 15 }),
  ],
  bank: { balance: 1177.37, date: '2026-03-06' },
  reconciliation: { bankBalance: 1177.37, date: '2026-03-06', leftover: 1182.12, difference: -4.75 },
};

function importAnswer(info: LedgerInfoView, reconciliation: StatementImport['reconciliation']): StatementImportView {
  const figures = reconciliation && reconciliationAnswer(reconciliation);
  return {
    ...info,
    imported: { matched: 1, added: 1, duplicates: 1, outside: 1, skipped: 0 },
    bank: figures && { balance: figures.bankBalance, date: figures.date },
    reconciliation: figures,
  };
}

function previewing(answer: StatementPreview) {
  const api = fakeApiClient();
  api.previewStatement.mockResolvedValue(statementPreviewAnswer(answer));
  return api;
}

const statementFile = (text = 'OFXHEADER:100\n<OFX>', name = 'checking.ofx') =>
  new File([text], name, { type: 'application/octet-stream' });

async function openImport() {
  const user = userEvent.setup();
  await user.click(screen.getByRole('button', { name: 'Import' }));
  const dialog = await screen.findByRole('dialog', { name: 'Import Statement' });
  return { user, dialog };
}

async function chooseFile(dialog: HTMLElement, file: File) {
  await userEvent.upload(within(dialog).getByLabelText('Statement file'), file);
}

const whatHappens = (dialog: HTMLElement, description: string, date: string) =>
  within(dialog).getByRole('combobox', { name: `What happens to ${description} on ${date}` });

describe('Import Statement dialog', () => {
  it('previews one line per statement row with what will happen to it, the bank figures, and descriptions as text', async () => {
    const api = previewing(PREVIEW);
    renderLedger(LEDGER, api);
    const { dialog } = await openImport();
    await chooseFile(dialog, statementFile());

    const preview = await within(dialog).findByRole('region', { name: 'Preview' });
    expect(api.previewStatement).toHaveBeenCalledWith({ fileName: 'checking.ofx', content: 'OFXHEADER:100\n<OFX>' });
    expect(within(preview).getByText('After import: Bank balance $1,177.37 · Leftover $1,182.12 · Difference -$4.75')).toBeVisible();
    // Nothing is reconciled before the import: the preview speaks of what the import would do.
    expect(within(preview).queryByText(/Reconciled with the bank/)).toBeNull();
    expect(whatHappens(dialog, 'OAKWOOD APTS', 'Mon, Mar 2, 2026')).toHaveDisplayValue('Matches Rent (Sun, Mar 1, 2026)');
    expect(whatHappens(dialog, '<b>COFFEE</b> & CO', 'Thu, Mar 5, 2026')).toHaveDisplayValue('New');
    const rows = within(preview).getAllByRole('row');
    expect(rows.map((line) => line.textContent)).toEqual([
      'DateDescriptionAmountWhat happens',
      expect.stringMatching(/^Mon, Mar 2, 2026OAKWOOD APTS-\$1,200\.00/),
      expect.stringMatching(/^Thu, Mar 5, 2026<b>COFFEE<\/b> & CO-\$4\.75/),
      'Fri, Mar 6, 2026GROCER-$54.23Already imported',
      'Sat, Jan 2, 2027LATE FEE-$15.00Outside the ledger',
    ]);
    // Dates as the page writes them everywhere (decision 0038); the markup keeps the ISO date.
    expect(within(rows[1] as HTMLElement).getByText('Mon, Mar 2, 2026')).toHaveAttribute('datetime', '2026-03-02');
    expect(within(preview).queryByText(/\d{4}-\d{2}-\d{2}/)).toBeNull();
    // Imported rows and rows outside the ledger can only be skipped: no choice to make.
    expect(within(rows[3] as HTMLElement).queryByRole('combobox')).toBeNull();
    expect(within(rows[4] as HTMLElement).queryByRole('combobox')).toBeNull();
    expect(preview.querySelector('b')).toBeNull();
  });

  it('lists the proposed match, other open rows of the same type and amount, New and Skip; sends only the changes and closes', async () => {
    const api = previewing(PREVIEW);
    const after = ledgerInfo([{ ...rent, status: 'CLEARED' }, otherRent, clearedRent]);
    api.importStatement.mockResolvedValue(
      importAnswer(after, { bankBalance: 1177.37, date: '2026-03-06', leftover: 1177.37, difference: 0 }),
    );
    const view = renderLedger(LEDGER, api);
    const { user, dialog } = await openImport();
    await chooseFile(dialog, statementFile());

    const oakwood = await within(dialog).findByRole('combobox', { name: 'What happens to OAKWOOD APTS on Mon, Mar 2, 2026' });
    expect(
      within(oakwood)
        .getAllByRole('option')
        .map((option) => option.textContent),
    ).toEqual(['Matches Rent (Sun, Mar 1, 2026)', 'Matches Rent (Wed, Apr 1, 2026)', 'New', 'Skip']);
    await user.selectOptions(oakwood, 'Matches Rent (Wed, Apr 1, 2026)');
    await user.selectOptions(whatHappens(dialog, '<b>COFFEE</b> & CO', 'Thu, Mar 5, 2026'), 'Skip');
    await user.click(within(dialog).getByRole('button', { name: 'Import' }));

    expect(api.importStatement).toHaveBeenCalledWith({
      fileName: 'checking.ofx',
      content: 'OFXHEADER:100\n<OFX>',
      decisions: [
        { index: 0, action: 'match', matchId: 'rent-april' },
        { index: 1, action: 'skip' },
      ],
    });
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Import Statement' })).toBeNull());
    expect(view.onChange).toHaveBeenCalledWith(after);
  });

  it('sends no decisions when nothing changed, and a match changed to New', async () => {
    const api = previewing(PREVIEW);
    api.importStatement.mockResolvedValue(importAnswer(LEDGER, null));
    renderLedger(LEDGER, api);
    let { user, dialog } = await openImport();
    await chooseFile(dialog, statementFile());
    await within(dialog).findByRole('region', { name: 'Preview' });
    await user.click(within(dialog).getByRole('button', { name: 'Import' }));
    expect(api.importStatement).toHaveBeenLastCalledWith({ fileName: 'checking.ofx', content: 'OFXHEADER:100\n<OFX>' });
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Import Statement' })).toBeNull());

    ({ user, dialog } = await openImport());
    await chooseFile(dialog, statementFile());
    await user.selectOptions(
      await within(dialog).findByRole('combobox', { name: 'What happens to OAKWOOD APTS on Mon, Mar 2, 2026' }),
      'New',
    );
    await user.click(within(dialog).getByRole('button', { name: 'Import' }));
    expect(api.importStatement).toHaveBeenLastCalledWith(expect.objectContaining({ decisions: [{ index: 0, action: 'new' }] }));
  });

  it('Cancel changes nothing', async () => {
    const api = previewing(PREVIEW);
    const view = renderLedger(LEDGER, api);
    const { user, dialog } = await openImport();
    await chooseFile(dialog, statementFile());
    await within(dialog).findByRole('region', { name: 'Preview' });
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Import Statement' })).toBeNull());
    expect(api.importStatement).not.toHaveBeenCalled();
    expect(view.onChange).not.toHaveBeenCalled();
  });

  it("shows the server's reason for an unreadable file on the file field and stays open", async () => {
    const message = 'Line 4: the amount "12.3.4" is not a number.';
    const api = fakeApiClient();
    api.previewStatement.mockRejectedValue(new ApiCallError('previewStatementPrimary', 400, message, { content: message }));
    const view = renderLedger(LEDGER, api);
    const { dialog } = await openImport();
    await chooseFile(dialog, statementFile('Date,Description,Amount\n01/02/2026,x,12.3.4', 'bad.csv'));

    const file = within(dialog).getByLabelText('Statement file');
    await waitFor(() => expect(file).toHaveAttribute('aria-invalid', 'true'));
    expect(file).toHaveAccessibleDescription(expect.stringContaining(message));
    expect(view.onError).toHaveBeenCalledOnce();
    expect(screen.getByRole('dialog', { name: 'Import Statement' })).toBeVisible();
    expect(within(dialog).getByRole('button', { name: 'Import' })).toBeDisabled();
  });

  it('marks the row whose decision the server refused, and stays open', async () => {
    const message = 'Rent (2026-04-01) is matched to another statement row.';
    const api = previewing(PREVIEW);
    api.importStatement.mockRejectedValue(
      new ApiCallError('importStatementPrimary', 400, 'Some decisions cannot be applied.', { 'decisions.0': message }),
    );
    renderLedger(LEDGER, api);
    const { user, dialog } = await openImport();
    await chooseFile(dialog, statementFile());
    await user.selectOptions(
      await within(dialog).findByRole('combobox', { name: 'What happens to <b>COFFEE</b> & CO on Thu, Mar 5, 2026' }),
      'Skip',
    );
    await user.click(within(dialog).getByRole('button', { name: 'Import' }));

    const coffee = whatHappens(dialog, '<b>COFFEE</b> & CO', 'Thu, Mar 5, 2026');
    await waitFor(() => expect(coffee).toHaveAttribute('aria-invalid', 'true'));
    expect(coffee).toHaveAccessibleDescription(message);
    expect(screen.getByRole('dialog', { name: 'Import Statement' })).toBeVisible();
  });

  it('refuses a file over 2 MB without reading or sending it', async () => {
    const api = fakeApiClient();
    renderLedger(LEDGER, api);
    const { dialog } = await openImport();
    const big = new File([new Uint8Array(2 * 1024 * 1024 + 1)], 'huge.csv');
    await chooseFile(dialog, big);

    const file = within(dialog).getByLabelText('Statement file');
    expect(file).toHaveAttribute('aria-invalid', 'true');
    expect(file).toHaveAccessibleDescription(expect.stringContaining('The statement is over 2 MB: export a shorter period.'));
    expect(api.previewStatement).not.toHaveBeenCalled();
  });

  it('decodes a file that is not UTF-8 as Windows-1252', async () => {
    const api = previewing(PREVIEW);
    renderLedger(LEDGER, api);
    const { dialog } = await openImport();
    // "Café – 5" in Windows-1252: é is 0xE9 and the en dash 0x96, neither valid UTF-8 here.
    const bytes = new Uint8Array([0x43, 0x61, 0x66, 0xe9, 0x20, 0x96, 0x20, 0x35]);
    await chooseFile(dialog, new File([bytes], 'cafe.csv'));
    await within(dialog).findByRole('region', { name: 'Preview' });
    // Node's decoder reads 0x96 as Latin-1 (U+0096), a browser's as the en dash; the server maps either (decision 0020).
    expect(api.previewStatement).toHaveBeenCalledWith({ fileName: 'cafe.csv', content: expect.stringMatching(/^Café [\u2013\u0096] 5$/) });
  });
});

describe('Import Statement dialog, a CSV without a header', () => {
  const COLUMNS = {
    count: 4,
    firstRows: [
      ['03/02/2026', 'OAKWOOD APTS', '-1200.00', '800.00'],
      ['03/05/2026', 'COFFEE', '-4.75', '795.25'],
    ],
  };
  const NEEDS_MAPPING: StatementPreview = {
    format: 'csv',
    needsMapping: true,
    columns: COLUMNS,
    rows: [],
    bank: null,
    reconciliation: null,
  };
  const MAPPED: StatementPreview = { ...PREVIEW, format: 'csv', columns: COLUMNS, bank: null, reconciliation: null };
  const MAPPING = { date: 0, description: 1, amount: 2, dateFormat: 'MM/DD/YYYY' } as const;

  it('asks for the columns from the first rows, previews with them, and reuses them for the next file of that shape', async () => {
    const api = fakeApiClient();
    api.previewStatement.mockImplementation(async (request) => statementPreviewAnswer(request.mapping ? MAPPED : NEEDS_MAPPING));
    renderLedger(LEDGER, api);
    let { user, dialog } = await openImport();
    await chooseFile(dialog, statementFile('03/02/2026,OAKWOOD APTS,-1200.00,800.00', 'export.csv'));

    const firstLines = await within(dialog).findByRole('table', { name: 'First lines of the file' });
    expect(within(firstLines).getByRole('cell', { name: 'OAKWOOD APTS' })).toBeVisible();
    expect(within(dialog).getByRole('button', { name: 'Import' })).toBeDisabled();

    // A half-made choice is marked before anything is sent.
    await user.selectOptions(within(dialog).getByLabelText('Date column'), 'Column 1 (03/02/2026)');
    await user.click(within(dialog).getByRole('button', { name: 'Preview' }));
    expect(within(dialog).getByLabelText('Description column')).toHaveAttribute('aria-invalid', 'true');
    expect(api.previewStatement).toHaveBeenCalledTimes(1);

    await user.selectOptions(within(dialog).getByLabelText('Description column'), 'Column 2 (OAKWOOD APTS)');
    await user.selectOptions(within(dialog).getByLabelText('Amount column'), 'Column 3 (-1200.00)');
    await user.selectOptions(within(dialog).getByLabelText('Date format'), 'MM/DD/YYYY');
    await user.click(within(dialog).getByRole('button', { name: 'Preview' }));

    await within(dialog).findByRole('region', { name: 'Preview' });
    expect(api.previewStatement).toHaveBeenLastCalledWith({
      fileName: 'export.csv',
      content: '03/02/2026,OAKWOOD APTS,-1200.00,800.00',
      mapping: MAPPING,
    });
    expect(JSON.parse(window.localStorage.getItem(CSV_MAPPING_STORAGE_KEY) ?? '{}')).toEqual({ '[4,null]': MAPPING });

    // The next file of the same shape previews with the remembered columns at once.
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Import Statement' })).toBeNull());
    api.previewStatement.mockClear();
    ({ user, dialog } = await openImport());
    await chooseFile(dialog, statementFile('04/01/2026,OAKWOOD APTS,-1200.00,0.00', 'april.csv'));
    await within(dialog).findByRole('region', { name: 'Preview' });
    expect(api.previewStatement).toHaveBeenLastCalledWith({
      fileName: 'april.csv',
      content: '04/01/2026,OAKWOOD APTS,-1200.00,0.00',
      mapping: MAPPING,
    });
    expect(within(dialog).queryByRole('table', { name: 'First lines of the file' })).toBeNull();
    expect(within(dialog).getByText(/Columns as you chose them before/)).toBeVisible();

    api.importStatement.mockResolvedValue(importAnswer(LEDGER, null));
    await user.click(within(dialog).getByRole('button', { name: 'Import' }));
    expect(api.importStatement).toHaveBeenCalledWith({
      fileName: 'april.csv',
      content: '04/01/2026,OAKWOOD APTS,-1200.00,0.00',
      mapping: MAPPING,
    });
  });
});

describe('Ledger header after an import', () => {
  it('says the bank balance, the leftover and the difference, follows the rows, and forgets it with a new ledger', async () => {
    const api = previewing(PREVIEW);
    const after = ledgerInfo([{ ...rent, status: 'CLEARED' }, otherRent], { openingBalance: 2382.12 });
    api.importStatement.mockResolvedValue(importAnswer(after, PREVIEW.reconciliation));
    const view = renderLedger(LEDGER, api);
    expect(screen.getByRole('status', { name: '' })).toBeEmptyDOMElement();

    const { user, dialog } = await openImport();
    await chooseFile(dialog, statementFile());
    await within(dialog).findByRole('region', { name: 'Preview' });
    await user.click(within(dialog).getByRole('button', { name: 'Import' }));
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Import Statement' })).toBeNull());
    view.rerender(after);
    const status = screen.getByRole('status', { name: '' });
    // 2,382.12 opening - 1,200 cleared = 1,182.12 against the bank's 1,177.37.
    expect(status).toHaveTextContent('Bank balance $1,177.37 on Fri, Mar 6, 2026 · Leftover $1,182.12 · Difference -$4.75');

    // Clearing a $4.75 row on or before the bank's date makes the ledger agree.
    const coffee = transaction({ id: 'coffee', name: 'COFFEE', date: '2026-03-05', type: 'D', amount: 4.75, status: 'CLEARED' });
    view.rerender(ledgerInfo([{ ...rent, status: 'CLEARED' }, coffee], { openingBalance: 2382.12 }));
    expect(status).toHaveTextContent('Reconciled with the bank on Fri, Mar 6, 2026');

    api.createLedger.mockResolvedValue(ledgerInfo([]));
    await user.click(screen.getByRole('button', { name: 'New Ledger' }));
    const create = await screen.findByRole('dialog', { name: 'New Ledger' });
    await user.type(within(create).getByLabelText('Start Date'), '2026-03-01');
    await user.type(within(create).getByLabelText('End Date'), '2026-12-31');
    await user.type(within(create).getByLabelText('Current Balance'), '100');
    await user.click(within(create).getByRole('button', { name: 'Create' }));
    await waitFor(() => expect(screen.getByRole('status', { name: '' })).toBeEmptyDOMElement());
  });
});
