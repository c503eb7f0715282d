/**
 * OFX and QFX statements: version 1 (SGML, where a leaf's closing tag is optional) and version 2
 * (XML), bank and credit card. A small reader of our own: decision 0020 says which libraries were
 * tried and where each failed.
 */
import { type IsoDate, isIsoDate } from '../calendar-date.js';
import { type InvalidInputError } from '../errors.js';
import { type TransactionType } from '../ledger.js';
import { cents } from '../money.js';
import { MAX_OFX_DEPTH, MAX_STATEMENT_ROWS, NESTED_TOO_DEEP, TOO_MANY_TRANSACTIONS } from './statement-bounds.js';
import {
  amountProblem,
  type BankBalance,
  decimalCents,
  numberRepeats,
  statementDescription,
  type StatementRow,
  unnamedRowDescription,
  unreadable,
} from './statement-row.js';

/** One element: an aggregate has children; a leaf has a value ('' when written empty). */
export interface OfxElement {
  readonly name: string;
  readonly value: string | null;
  readonly children: readonly OfxElement[];
}

interface BuildingElement {
  readonly name: string;
  value: string | null;
  readonly children: BuildingElement[];
}

export interface OfxStatement {
  readonly rows: StatementRow[];
  readonly bank: BankBalance | null;
  /** The bank's id of the account (ACCTID of BANKACCTFROM or CCACCTFROM), or null when the file names none. */
  readonly bankAccountId: string | null;
}

// The start of a comment (its end is looked for apart, see below), declarations and processing
// instructions; then tags; then text; then a "<" that starts no tag. A tag name is taken whole
// (the lookahead): giving back its characters one by one to look for a ">" again would make a
// long name cost its length squared.
const TOKEN = /<!--|<![^>]*>|<\?[\s\S]*?\?>|<(\/?)([A-Za-z][\w.:-]*)(?![\w.:-])[^<>]*?(\/?)>|([^<]+)|</g;

/**
 * The <OFX> element of a file, whatever comes before it (OFX 1's "OFXHEADER:100" lines, OFX 2's
 * XML prolog). A leaf is an element whose open tag is followed by text; its closing tag may or may
 * not follow. A closing tag closes every element opened inside its own, so an SGML leaf written
 * empty (which looks like an aggregate) never hides the fields after it. Elements nested more
 * than MAX_OFX_DEPTH deep are refused, so nothing that walks the tree goes deeper.
 */
export function readOfxDocument(content: string): OfxElement {
  const start = content.search(/<OFX[\s>]/i);
  if (start < 0) throw unreadable('The file is not OFX: it has no <OFX> element.');
  const root: BuildingElement = { name: '', value: null, children: [] };
  const open: BuildingElement[] = [root];
  // For each tag name, the positions in `open` where an element of that name is open, deepest
  // last: a closing tag finds its element without looking through every open one.
  const openAt = new Map<string, number[]>();
  const popTo = (depth: number): void => {
    while (open.length > depth) {
      const element = open.pop();
      if (element) openAt.get(element.name)?.pop();
    }
  };
  let closableLeaf: BuildingElement | null = null;
  // Once no "-->" follows a comment, none follows any later one: looking again for each would
  // read the rest of the file once per comment.
  let commentsEnd = true;
  TOKEN.lastIndex = start;
  for (let token = TOKEN.exec(content); token; token = TOKEN.exec(content)) {
    const [text, slash, tagName, selfClosing, between] = token;
    const parent = open.at(-1) ?? root;
    if (text === '<!--') {
      const end: number = commentsEnd ? content.indexOf('-->', token.index + 4) : -1;
      commentsEnd = end >= 0;
      // A comment never closed reads as a declaration: up to the next ">".
      const close = end >= 0 ? end + 2 : content.indexOf('>', token.index);
      if (close < 0) throw notATag(content, token.index);
      TOKEN.lastIndex = close + 1;
    } else if (between !== undefined) {
      const value = between.trim();
      if (value !== '' && parent !== root && parent.value === null && parent.children.length === 0) {
        parent.value = decodeEntities(value);
        popTo(open.length - 1);
        closableLeaf = parent;
      }
    } else if (tagName !== undefined) {
      const name = tagName.toUpperCase();
      if (slash) {
        const depth = openAt.get(name)?.at(-1);
        if (closableLeaf?.name !== name && depth !== undefined) popTo(depth);
        closableLeaf = null;
      } else {
        const element: BuildingElement = { name, value: selfClosing ? '' : null, children: [] };
        parent.children.push(element);
        if (!selfClosing) {
          // `open` holds the root, so its length is the new element's depth (<OFX> is 1).
          if (open.length > MAX_OFX_DEPTH) throw unreadable(NESTED_TOO_DEEP);
          const positions = openAt.get(name);
          if (positions) positions.push(open.length);
          else openAt.set(name, [open.length]);
          open.push(element);
        }
        closableLeaf = null;
      }
    } else if (text === '<') {
      throw notATag(content, token.index);
    }
  }
  const ofx = root.children[0];
  if (!ofx) throw unreadable('The file is not OFX: it has no <OFX> element.');
  return ofx;
}

function notATag(content: string, offset: number): InvalidInputError {
  return unreadable(`Line ${lineOf(content, offset)}: "${content.slice(offset, offset + 20)}" is not an OFX tag.`);
}

function lineOf(content: string, offset: number): number {
  return (content.slice(0, offset).match(/\r\n|\r|\n/g)?.length ?? 0) + 1;
}

const NAMED_ENTITIES: Readonly<Record<string, string>> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: '\u00A0' };

/** XML's entities and numeric references; an "&" that starts none of them (SGML's "AT&T") stays as written. */
function decodeEntities(text: string): string {
  return text.replace(/&(?:#(\d{1,7})|#x([0-9a-f]{1,6})|(amp|lt|gt|quot|apos|nbsp));/gi, (entity, decimal, hex, named) => {
    if (typeof named === 'string') return NAMED_ENTITIES[named.toLowerCase()] ?? entity;
    const codePoint = typeof decimal === 'string' ? Number(decimal) : Number.parseInt(String(hex), 16);
    const isCharacter = codePoint > 0 && codePoint <= 0x10ffff && (codePoint < 0xd800 || codePoint > 0xdfff);
    return isCharacter ? String.fromCodePoint(codePoint) : '\uFFFD';
  });
}

/**
 * Adds the element's children to a stack of elements still to visit, the first child on top: the
 * walks below take from it in document order, with no recursion whose depth the file decides.
 */
function pushChildren(pending: OfxElement[], element: OfxElement): void {
  for (let position = element.children.length - 1; position >= 0; position -= 1) {
    const child = element.children[position];
    if (child) pending.push(child);
  }
}

/** The elements of that name under the element, in document order, without looking inside them. */
function descendants(element: OfxElement, name: string): OfxElement[] {
  const found: OfxElement[] = [];
  const pending: OfxElement[] = [];
  pushChildren(pending, element);
  for (let next = pending.pop(); next; next = pending.pop()) {
    if (next.name === name) found.push(next);
    else pushChildren(pending, next);
  }
  return found;
}

// Aggregates inside a transaction whose leaves are not the transaction's own (a transfer's other
// account has its own ACCTID, a foreign currency its own rate).
const FOREIGN_AGGREGATES = new Set(['BANKACCTTO', 'CCACCTTO', 'CURRENCY', 'ORIGCURRENCY', 'IMAGEDATA']);

/** Leaf values under an element, first one of each name in document order (PAYEE's NAME included). */
function fieldsOf(element: OfxElement): Map<string, string> {
  const fields = new Map<string, string>();
  const pending: OfxElement[] = [];
  pushChildren(pending, element);
  for (let next = pending.pop(); next; next = pending.pop()) {
    if (next.children.length > 0) {
      if (!FOREIGN_AGGREGATES.has(next.name)) pushChildren(pending, next);
    } else if (!fields.has(next.name)) {
      fields.set(next.name, next.value ?? '');
    }
  }
  return fields;
}

export function readOfxStatement(content: string): OfxStatement {
  const ofx = readOfxDocument(content);
  const statements = [...descendants(ofx, 'STMTRS'), ...descendants(ofx, 'CCSTMTRS')];
  if (statements.length > 1) {
    throw unreadable(`The file holds ${statements.length} account statements (STMTRS): export one account at a time.`);
  }
  const statement = statements[0] ?? ofx;
  const transactions = descendants(statement, 'STMTTRN');
  if (transactions.length > MAX_STATEMENT_ROWS) throw unreadable(TOO_MANY_TRANSACTIONS);
  const ledgerBalance = descendants(statement, 'LEDGERBAL')[0];
  if (transactions.length === 0 && !ledgerBalance) {
    throw unreadable('The file has no transactions (STMTTRN) and no balance (LEDGERBAL).');
  }
  const accountFrom = [...descendants(statement, 'BANKACCTFROM'), ...descendants(statement, 'CCACCTFROM')][0];
  const account = accountFrom ? fieldsOf(accountFrom).get('ACCTID') : undefined;
  // FITIDs are unique per account only, so the account keeps two accounts' ids apart.
  const idPrefix = account ? `ofx:${account}:` : 'ofx:';
  const read = transactions.flatMap((transaction, position) => readTransaction(transaction, `STMTTRN ${position + 1}`));
  const importIds = numberRepeats(
    read.map((row) => idPrefix + (row.fitId || `${row.date}:${row.type === 'C' ? '' : '-'}${row.amount}:${row.description}`)),
    false,
  );
  const rows = read.map((row, index) => ({
    index,
    date: row.date,
    description: row.description,
    type: row.type,
    amount: row.amount,
    importId: importIds[index] ?? '',
  }));
  return { rows, bank: ledgerBalance ? readLedgerBalance(ledgerBalance) : null, bankAccountId: account || null };
}

type ReadTransaction = Omit<StatementRow, 'index' | 'importId'> & { readonly fitId: string };

/** The transaction, or nothing for a zero amount (no money moved; a ledger amount is never zero). */
function readTransaction(transaction: OfxElement, where: string): ReadTransaction[] {
  const fields = fieldsOf(transaction);
  const date = readDate(fields, 'DTPOSTED', where);
  const signed = readAmount(fields, 'TRNAMT', where);
  if (signed === 0) return [];
  const type: TransactionType = signed > 0 ? 'C' : 'D';
  const checkNumber = fields.get('CHECKNUM')?.trim();
  // NAME is the payee, kept short as a row name should be; MEMO is often reference noise ("PPD
  // ID 9876543210"), so it is the name only when the bank gave no NAME.
  const description =
    statementDescription(fields.get('NAME') ?? '') ||
    statementDescription(fields.get('MEMO') ?? '') ||
    (checkNumber ? statementDescription(`Check ${checkNumber}`) : '') ||
    unnamedRowDescription(type);
  return [{ date, description, type, amount: cents(Math.abs(signed)), fitId: fields.get('FITID')?.trim() ?? '' }];
}

function readLedgerBalance(ledgerBalance: OfxElement): BankBalance {
  const fields = fieldsOf(ledgerBalance);
  return { balance: cents(readAmount(fields, 'BALAMT', 'LEDGERBAL')), date: readDate(fields, 'DTASOF', 'LEDGERBAL') };
}

function required(fields: ReadonlyMap<string, string>, name: string, where: string): string {
  const value = fields.get(name)?.trim() ?? '';
  if (value === '') throw unreadable(`${where}: ${name} is missing.`);
  return value;
}

/**
 * The calendar date as the bank wrote it: the first eight digits of 20270101120000.000[-5:EST].
 * That is the day on the bank's own statement; moving it through the time zone to UTC or to the
 * server's zone would put an evening posting on the next day.
 */
function readDate(fields: ReadonlyMap<string, string>, name: string, where: string): IsoDate {
  const value = required(fields, name, where);
  const digits = /^(\d{4})(\d{2})(\d{2})/.exec(value);
  if (!digits) throw unreadable(`${where}: ${name} "${value.slice(0, 40)}" is not a date.`);
  const date = `${digits[1]}-${digits[2]}-${digits[3]}`;
  if (!isIsoDate(date)) throw unreadable(`${where}: ${name} "${value.slice(0, 40)}" is a date that does not exist.`);
  return date;
}

/** Signed cents; OFX allows a comma as the decimal separator but no thousands separators. */
function readAmount(fields: ReadonlyMap<string, string>, name: string, where: string): number {
  const value = required(fields, name, where);
  const parts = /^([+-]?)(\d*)(?:[.,](\d*))?$/.exec(value.replace(/\s+/g, ''));
  const magnitude = parts && (parts[2] || parts[3]) ? decimalCents(parts[2] ?? '', parts[3] ?? '') : null;
  if (magnitude === null) throw unreadable(`${where}: ${name} "${value.slice(0, 40)}" is not a number.`);
  const signed = parts?.[1] === '-' ? -magnitude : magnitude;
  const problem = amountProblem(signed);
  if (problem) throw unreadable(`${where}: ${name} "${value.slice(0, 40)}" ${problem}.`);
  return signed;
}
