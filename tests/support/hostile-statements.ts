/**
 * The files and the restore an attacker used against statement reading (issue 22), at any size:
 * the reliability test sends them at full size to the built server, the statement fuzzer sends
 * them small among its generated files.
 */
import { EXPORT_FORMAT } from '../../src/contract/your-data.js';

/** The date every hostile row is on: inside the ledger below, so every row is a match candidate. */
export const HOSTILE_DATE = '2027-01-05';
const OFX_DATE = HOSTILE_DATE.replaceAll('-', '');

function rowId(index: number): string {
  return `0190a1b2-c3d4-7e5f-8a6b-${index.toString(16).padStart(12, '0')}`;
}

/**
 * A restore whose ledger holds `rows` PENDING $1.00 debits, all on HOSTILE_DATE (finding 1 used
 * 20,000): the most candidates one statement row can have in a ledger at the row limit.
 */
export function pendingLedgerExport(rows: number) {
  return {
    format: EXPORT_FORMAT,
    // A version 1 document (one ledger, no accounts): it restores into the primary account (decision 0042).
    version: 1,
    exportedAt: '2026-11-21T12:00:00.000Z',
    deposits: [],
    expenses: [],
    ledger: {
      startDate: '2026-12-01',
      endDate: '2027-06-30',
      openingBalance: 0,
      nextSequence: rows + 1,
      transactions: Array.from({ length: rows }, (_, index) => ({
        id: rowId(index + 1),
        sequence: index + 1,
        date: HOSTILE_DATE,
        name: 'Card',
        type: 'D',
        amount: 1,
        status: 'PENDING',
        source: null,
      })),
      skippedOccurrences: [],
      importedStatementRows: [],
      removedSchedules: [],
    },
  };
}

/** A CSV of `rows` identical $1.00 debits on HOSTILE_DATE, with a header the reader recognises (finding 1 used 3,000). */
export function sameRowsCsv(rows: number): string {
  return `Date,Description,Amount\n${`${HOSTILE_DATE},x,-1.00\n`.repeat(rows)}`;
}

/** `lines` short transaction lines (finding 4 used about 130,000, 1.8 MB). */
export function shortLinesCsv(lines: number): string {
  return `Date,Description,Amount\n${`${HOSTILE_DATE},x,1\n`.repeat(lines)}`;
}

/** A valid OFX 1 (SGML) statement around the given STMTTRN elements, with no closing balance. */
export function ofxStatement(transactions: string): string {
  return [
    'OFXHEADER:100',
    'DATA:OFXSGML',
    'VERSION:102',
    'SECURITY:NONE',
    'ENCODING:USASCII',
    'CHARSET:1252',
    'COMPRESSION:NONE',
    'OLDFILEUID:NONE',
    'NEWFILEUID:NONE',
    '',
    '<OFX>',
    '<BANKMSGSRSV1>',
    '<STMTTRNRS>',
    '<TRNUID>1001',
    '<STMTRS>',
    '<CURDEF>USD',
    '<BANKACCTFROM>',
    '<BANKID>071000013',
    '<ACCTID>000123456789',
    '<ACCTTYPE>CHECKING',
    '</BANKACCTFROM>',
    '<BANKTRANLIST>',
    `<DTSTART>${OFX_DATE}`,
    `<DTEND>${OFX_DATE}`,
    `${transactions}</BANKTRANLIST>`,
    '</STMTRS>',
    '</STMTTRNRS>',
    '</BANKMSGSRSV1>',
    '</OFX>',
    '',
  ].join('\n');
}

/** One $1.00 debit on HOSTILE_DATE, as short as OFX 1 allows (no TRNTYPE, no NAME). */
function ofxTransaction(fitId: string): string {
  return `<STMTTRN><DTPOSTED>${OFX_DATE}<TRNAMT>-1<FITID>${fitId}</STMTTRN>\n`;
}

/**
 * `unique` transactions with their own FITIDs, then `repeats` that all share one FITID (finding 2
 * used 16,000 of each in 1.84 MB): numbering the repeats must not look back over all the others.
 */
export function repeatedFitIdOfx(unique: number, repeats: number): string {
  const transactions =
    Array.from({ length: unique }, (_, index) => ofxTransaction(`U${index}`)).join('') + ofxTransaction('R').repeat(repeats);
  return ofxStatement(transactions);
}

/** `<OFX>`, then `count` opening tags and `count` closing tags of another name (finding 3 used 20,000, 140 KB). */
export function unmatchedTagsOfx(count: number): string {
  return `<OFX>${'<A>'.repeat(count)}${'</Z>'.repeat(count)}`;
}

/**
 * `<OFX>` with elements opened `depth` deep inside it (finding 4 used 3,000 and no closing tags,
 * 9 KB); `closed` closes them all again around a value.
 */
export function deepOfx(depth: number, closed = false): string {
  return closed ? `<OFX>${'<A>'.repeat(depth)}x${'</A>'.repeat(depth)}</OFX>` : `<OFX>${'<A>'.repeat(depth)}`;
}
