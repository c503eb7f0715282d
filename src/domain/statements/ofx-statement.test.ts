import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import { InvalidInputError } from '../errors.js';
import { type OfxElement, readOfxDocument, readOfxStatement } from './ofx-statement.js';
import { MAX_OFX_DEPTH, MAX_STATEMENT_ROWS } from './statement-bounds.js';

const FIXTURES = new URL('../../../tests/fixtures/statements/', import.meta.url);
const fixture = (name: string): string => fs.readFileSync(new URL(name, FIXTURES), 'utf8');

/** An OFX 1 file around the given transactions (SGML leaves, no closing tags). */
const sgml = (transactions: string, extra = ''): string =>
  [
    'OFXHEADER:100',
    'DATA:OFXSGML',
    'VERSION:102',
    '',
    '<OFX><BANKMSGSRSV1><STMTTRNRS><STMTRS><CURDEF>USD',
    '<BANKACCTFROM><BANKID>1<ACCTID>42<ACCTTYPE>CHECKING</BANKACCTFROM>',
    `<BANKTRANLIST>${transactions}</BANKTRANLIST>${extra}`,
    '</STMTRS></STMTTRNRS></BANKMSGSRSV1></OFX>',
  ].join('\n');
const transaction = (fields: string): string => `<STMTTRN>\n${fields}\n</STMTTRN>`;
const plain = (fields: string) => readOfxStatement(sgml(transaction(fields))).rows[0];

function refusal(content: string): string | undefined {
  try {
    readOfxStatement(content);
  } catch (error) {
    if (error instanceof InvalidInputError) return error.fields.content;
    throw error;
  }
  throw new Error('the file was read');
}

const leaves = (element: OfxElement): string[] =>
  element.children.flatMap((child) => (child.children.length > 0 ? leaves(child) : [`${child.name}=${child.value ?? '(empty)'}`]));

describe('reading an OFX document', () => {
  it('reads SGML leaves without closing tags, and aggregates with them', () => {
    const ofx = readOfxDocument('OFXHEADER:100\r\n\r\n<OFX>\r\n<A>\r\n<B>one\r\n<C>two\r\n</A>\r\n<D>three\r\n</OFX>\r\n');
    expect(ofx.name).toBe('OFX');
    expect(ofx.children.map((child) => child.name)).toEqual(['A', 'D']);
    expect(leaves(ofx)).toEqual(['B=one', 'C=two', 'D=three']);
  });

  it('reads XML with a prolog, processing instructions, comments and self-closed leaves', () => {
    const ofx = readOfxDocument(
      '<?xml version="1.0"?>\n<?OFX OFXHEADER="200"?>\n<!-- <NOT>a tag -->\n<OFX><A><B>one</B><C/><D></D></A></OFX>',
    );
    expect(leaves(ofx)).toEqual(['B=one', 'C=', 'D=(empty)']);
  });

  it('reads a leaf that has a closing tag among ones that do not', () => {
    expect(leaves(readOfxDocument('<OFX><A><B>one</B>\n<C>two\n<D>three</D></A></OFX>'))).toEqual(['B=one', 'C=two', 'D=three']);
  });

  it('keeps the fields after an SGML leaf written empty', () => {
    expect(leaves(readOfxDocument('<OFX><A><MEMO>\n<B>one\n</A><C>two</OFX>'))).toEqual(['B=one', 'C=two']);
  });

  it('takes dotted tag names (Intuit’s) and any case', () => {
    expect(leaves(readOfxDocument('<ofx><INTU.BID>10898<intu.userid>me</ofx>'))).toEqual(['INTU.BID=10898', 'INTU.USERID=me']);
  });

  it('decodes entities and leaves a bare & as written', () => {
    const ofx = readOfxDocument('<OFX><A>AT&amp;T &lt;1&gt; &quot;q&quot; &apos;a&apos; &#233;&#xE9; &#0; AT&T &bogus;</A></OFX>');
    expect(leaves(ofx)).toEqual(['A=AT&T <1> "q" \'a\' éé \uFFFD AT&T &bogus;']);
  });

  it('refuses a file without an <OFX> element, and a "<" that starts no tag', () => {
    expect(() => readOfxDocument('OFXHEADER:100\n\n<BANKMSGSRSV1>')).toThrow('The file is not OFX: it has no <OFX> element.');
    expect(() => readOfxDocument('<OFX>\n<A>\n<B>1 < 2\n</OFX>')).toThrow('Line 3: "< 2\n</OFX>" is not an OFX tag.');
  });
});

describe('the README’s OFX variations', () => {
  it('QFX: Intuit’s extra tags are ignored, &amp; decoded, MEMO names a row without NAME', () => {
    const { rows, bank } = readOfxStatement(fixture('quicken-intuit.qfx'));
    expect(rows).toHaveLength(8);
    expect(rows[1]?.description).toBe('OAKWOOD APTS & HOMES');
    expect(rows[3]?.description).toBe('STARBUCKS STORE 05678');
    expect(rows[4]).toMatchObject({ date: '2027-01-09', amount: 3_810, description: 'SHELL OIL 57444' });
    expect(bank).toEqual({ balance: 117_737, date: '2027-01-16' });
  });

  it('OFX 1 with closing tags on some leaves, and with LF line ends, reads like the sample', () => {
    const sample = readOfxStatement(fixture('checking-ofx1-sgml.ofx'));
    expect(readOfxStatement(fixture('ofx1-some-closing-tags.ofx'))).toEqual(sample);
    expect(fixture('ofx1-lf-line-ends.ofx')).not.toContain('\r');
    expect(readOfxStatement(fixture('ofx1-lf-line-ends.ofx'))).toEqual(sample);
  });

  it('OFX 2 with entities, a PAYEE, a memo-only row and a check with only its number', () => {
    const { rows, bank } = readOfxStatement(fixture('ofx2-entities-payee.ofx'));
    expect(rows.map((row) => [row.type, row.amount, row.description, row.importId])).toEqual([
      ['D', 6_400, 'AT&T <MOBILITY> – ™', 'ofx:555:X1'],
      ['D', 15_000, 'JANE SMITH', 'ofx:555:X2'],
      ['C', 525, 'INTEREST PAID', 'ofx:555:X3'],
      ['D', 2_000, 'Check 1043', 'ofx:555:X4'],
    ]);
    expect(bank).toEqual({ balance: -22_875, date: '2027-01-08' });
  });

  it('a credit card statement (CCSTMTRS) keys its ids by the card account', () => {
    expect(readOfxStatement(fixture('credit-card.ofx')).rows[0]?.importId).toBe('ofx:4111111111111111:2027010424692160004000001');
  });
});

describe('transactions', () => {
  it('take the calendar date as written, whatever the time and zone', () => {
    for (const posted of ['20270101', '20270101120000', '20270101235959.999[-5:EST]', '20270101000000.000[+12:NZST]', '202701012359']) {
      expect(plain(`<DTPOSTED>${posted}<TRNAMT>-1.00<FITID>1<NAME>A`)?.date).toBe('2027-01-01');
    }
  });

  it('read signed amounts with a point or a comma before the cents', () => {
    const amounts = ['-1.5', '+2.00', '3', '-4,25', ' -5.00 ', '6.', '.07', '-8.1000'].map((amount) => {
      const row = plain(`<DTPOSTED>20270101<TRNAMT>${amount}<FITID>1<NAME>A`);
      return [row?.type, row?.amount];
    });
    expect(amounts).toEqual([
      ['D', 150],
      ['C', 200],
      ['C', 300],
      ['D', 425],
      ['D', 500],
      ['C', 600],
      ['C', 7],
      ['D', 810],
    ]);
  });

  it('are named by NAME, else MEMO, else the check number, else Deposit or Withdrawal', () => {
    const name = (fields: string) => plain(`<DTPOSTED>20270101<TRNAMT>-1<FITID>1${fields}`)?.description;
    expect(name('<NAME>  ACME   CORP <MEMO>PPD ID 1')).toBe('ACME CORP');
    expect(name('<MEMO>POS PURCHASE')).toBe('POS PURCHASE');
    expect(name('<NAME></NAME><MEMO>FROM MEMO</MEMO>')).toBe('FROM MEMO');
    expect(name('<CHECKNUM>1042')).toBe('Check 1042');
    expect(name('')).toBe('Withdrawal');
    expect(plain('<DTPOSTED>20270101<TRNAMT>1<FITID>1')?.description).toBe('Deposit');
  });

  it('skip a zero amount', () => {
    const { rows } = readOfxStatement(
      sgml(transaction('<DTPOSTED>20270101<TRNAMT>0.00<FITID>1<NAME>A') + transaction('<DTPOSTED>20270102<TRNAMT>-1<FITID>2<NAME>B')),
    );
    expect(rows.map((row) => [row.index, row.description])).toEqual([[0, 'B']]);
  });

  it('ignore the other account of a transfer and a foreign currency', () => {
    const row = plain('<DTPOSTED>20270101<TRNAMT>-1<FITID>7<NAME>A<BANKACCTTO><BANKID>9<ACCTID>99<ACCTTYPE>SAVINGS</BANKACCTTO>');
    expect(row?.importId).toBe('ofx:42:7');
  });

  it('without a FITID are fingerprinted; repeated FITIDs are numbered', () => {
    const { rows } = readOfxStatement(
      sgml(
        transaction('<DTPOSTED>20270101<TRNAMT>-1<NAME>A') +
          transaction('<DTPOSTED>20270101<TRNAMT>-1<NAME>A') +
          transaction('<DTPOSTED>20270102<TRNAMT>-2<FITID>F<NAME>B') +
          transaction('<DTPOSTED>20270103<TRNAMT>-3<FITID>F<NAME>C'),
      ),
    );
    expect(rows.map((row) => row.importId)).toEqual(['ofx:42:2027-01-01:-100:A', 'ofx:42:2027-01-01:-100:A:2', 'ofx:42:F', 'ofx:42:F:2']);
  });

  it('without an account are keyed by FITID alone', () => {
    const content = '<OFX><BANKTRANLIST><STMTTRN><DTPOSTED>20270101<TRNAMT>-1<FITID>F<NAME>A</STMTTRN></BANKTRANLIST></OFX>';
    expect(readOfxStatement(content).rows[0]?.importId).toBe('ofx:F');
  });
});

describe('the closing balance', () => {
  it('is LEDGERBAL, not AVAILBAL', () => {
    const extra = '<LEDGERBAL><BALAMT>-10.50<DTASOF>20270131120000[-5:EST]</LEDGERBAL><AVAILBAL><BALAMT>99<DTASOF>20270201</AVAILBAL>';
    expect(readOfxStatement(sgml('', extra))).toEqual({ rows: [], bank: { balance: -1_050, date: '2027-01-31' }, bankAccountId: '42' });
  });

  it('is absent without a LEDGERBAL', () => {
    expect(readOfxStatement(sgml(transaction('<DTPOSTED>20270101<TRNAMT>-1<FITID>1<NAME>A'))).bank).toBeNull();
  });
});

describe('files that cannot be read say which transaction or tag', () => {
  const one = (fields: string): string => sgml(transaction('<DTPOSTED>20270101<TRNAMT>-1<FITID>1<NAME>A') + transaction(fields));
  it.each([
    [one('<TRNAMT>-1<FITID>2<NAME>B'), 'STMTTRN 2: DTPOSTED is missing.'],
    [one('<DTPOSTED><TRNAMT>-1<FITID>2'), 'STMTTRN 2: DTPOSTED is missing.'],
    [one('<DTPOSTED>20270230<TRNAMT>-1<FITID>2'), 'STMTTRN 2: DTPOSTED "20270230" is a date that does not exist.'],
    [one('<DTPOSTED>Jan 1 2027<TRNAMT>-1<FITID>2'), 'STMTTRN 2: DTPOSTED "Jan 1 2027" is not a date.'],
    [one('<DTPOSTED>20270101<FITID>2'), 'STMTTRN 2: TRNAMT is missing.'],
    [one('<DTPOSTED>20270101<TRNAMT>abc<FITID>2'), 'STMTTRN 2: TRNAMT "abc" is not a number.'],
    [one('<DTPOSTED>20270101<TRNAMT>1,000.00<FITID>2'), 'STMTTRN 2: TRNAMT "1,000.00" is not a number.'],
    [one('<DTPOSTED>20270101<TRNAMT>-1.005<FITID>2'), 'STMTTRN 2: TRNAMT "-1.005" is not a number.'],
    [one('<DTPOSTED>20270101<TRNAMT>100000000.00<FITID>2'), 'STMTTRN 2: TRNAMT "100000000.00" is over $99,999,999.99.'],
    [sgml('', '<LEDGERBAL><DTASOF>20270101</LEDGERBAL>'), 'LEDGERBAL: BALAMT is missing.'],
    [sgml('', '<LEDGERBAL><BALAMT>1.00</LEDGERBAL>'), 'LEDGERBAL: DTASOF is missing.'],
    [sgml(''), 'The file has no transactions (STMTTRN) and no balance (LEDGERBAL).'],
    [
      sgml('').replace('</BANKMSGSRSV1>', '<STMTTRNRS><STMTRS></STMTRS></STMTTRNRS></BANKMSGSRSV1>'),
      'The file holds 2 account statements (STMTRS): export one account at a time.',
    ],
  ])('%#: %s', (content, message) => {
    expect(refusal(content)).toBe(message);
  });

  it('the missing-DTPOSTED fixture', () => {
    expect(refusal(fixture('ofx1-missing-dtposted.ofx'))).toBe('STMTTRN 3: DTPOSTED is missing.');
  });
});

describe('files built to make reading slow or deep', () => {
  const DEPTH_MESSAGE = 'The file nests its elements more than 64 deep: it is not a bank statement.';
  const documentRefusal = (content: string): string | undefined => {
    try {
      readOfxDocument(content);
    } catch (error) {
      if (error instanceof InvalidInputError) return error.fields.content;
      throw error;
    }
    throw new Error('the document was read');
  };

  it('refuses elements nested deeper than the limit, however many closing tags follow', () => {
    expect(MAX_OFX_DEPTH).toBe(64);
    expect(documentRefusal(`<OFX>${'<A>'.repeat(20_000)}${'</Z>'.repeat(20_000)}`)).toBe(DEPTH_MESSAGE);
    expect(refusal(`<OFX>${'<A>'.repeat(3_000)}`)).toBe(DEPTH_MESSAGE);
    expect(refusal(sgml(transaction(`<DTPOSTED>20270101<TRNAMT>-1<FITID>1${'<A>'.repeat(3_000)}`)))).toBe(DEPTH_MESSAGE);
  });

  it('reads a transaction whose fields are 64 deep, and refuses one a level deeper', () => {
    // <OFX> is 1 deep and each leaf of sgml's STMTTRN is 7 deep: wrappers take the leaves to `depth`.
    const wrapped = (depth: number): string => {
      const names = Array.from({ length: depth - 7 }, (_, level) => `W${level}`);
      const fields = '<DTPOSTED>20270101<TRNAMT>-1<FITID>1<NAME>Deep';
      return sgml(
        transaction(
          `${names.map((name) => `<${name}>`).join('')}${fields}${[...names]
            .reverse()
            .map((name) => `</${name}>`)
            .join('')}`,
        ),
      );
    };
    expect(readOfxStatement(wrapped(64)).rows).toMatchObject([{ date: '2027-01-01', description: 'Deep', importId: 'ofx:42:1' }]);
    expect(refusal(wrapped(65))).toBe(DEPTH_MESSAGE);
  });

  it('closes the innermost open element of a name, among many closing tags that close nothing', () => {
    const strays = '</Z>'.repeat(200_000);
    const ofx = readOfxDocument(`<OFX><A><B><A><C>1${strays}</A><D>2</A><E>3${'<F>'.repeat(60)}${strays}<G>4`);
    const shape = (element: OfxElement): unknown =>
      element.children.length > 0 ? { [element.name]: element.children.map(shape) } : `${element.name}=${element.value ?? ''}`;
    const nested = (depth: number, inner: unknown): unknown => (depth === 0 ? inner : { F: [nested(depth - 1, inner)] });
    expect(shape(ofx)).toEqual({ OFX: [{ A: [{ B: [{ A: ['C=1'] }, 'D=2'] }] }, 'E=3', nested(60, 'G=4')] });
  });

  it('reads past many comments that are never closed, as declarations, each once', () => {
    expect(leaves(readOfxDocument(`<OFX>${'<!-- >'.repeat(300_000)}<A>1`))).toEqual(['A=1']);
    // A comment closed further on still hides everything up to its end.
    expect(leaves(readOfxDocument(`<OFX>${'<!-- >'.repeat(1_000)}<A>1 --><B>2`))).toEqual(['B=2']);
    expect(() => readOfxDocument('<OFX><A>1<!-- never closed')).toThrow('Line 1: "<!-- never closed" is not an OFX tag.');
  });

  it('refuses a tag name that never ends, without trying every shorter name', () => {
    expect(documentRefusal(`<OFX>\n<A${'a'.repeat(1_000_000)}<`)).toBe(`Line 2: "<A${'a'.repeat(18)}" is not an OFX tag.`);
  });

  it('reads 10,000 transactions of one FITID as 10,000 ids, and refuses 10,001 transactions', () => {
    expect(MAX_STATEMENT_ROWS).toBe(10_000);
    const many = (count: number): string => sgml(transaction('<DTPOSTED>20270101<TRNAMT>-1<FITID>F<NAME>A').repeat(count));
    const ids = readOfxStatement(many(10_000)).rows.map((row) => row.importId);
    expect(ids).toHaveLength(10_000);
    expect(new Set(ids).size).toBe(10_000);
    expect(ids.slice(0, 2)).toEqual(['ofx:42:F', 'ofx:42:F:2']);
    expect(refusal(many(10_001))).toBe('The statement has more than 10,000 transactions: export a shorter period.');
  });
});
