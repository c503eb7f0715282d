/**
 * A fuzzer for the statement readers through a real server (issue 22; ENGINEERING.md convention
 * 14: a fuzzer for every parser): fast-check generates statement files (random text, the fixtures
 * mutated: truncated, tags duplicated or left open, nesting thousands deep, FITIDs repeated, many
 * columns, long lines, other encodings, NUL bytes; and the shapes of issue 22's findings at small
 * sizes) and sends each as a .csv, .ofx or .qfx file to preview, and some to import, as a user
 * with a small ledger. Every answer must come within ANSWER_MS, never be a 5xx, and be what the
 * contract says: the preview or import answer, or the strict error body. The app answers /api/me
 * after all of it.
 *
 * FUZZ_RUNS sets the runs per property (40 here; `npm run fuzz` runs 2000). A failure prints
 * fast-check's seed and the shrunk file, to replay with `fc.assert(..., { seed, path })`.
 */
import fs from 'node:fs';
import type { LightMyRequestResponse } from 'fastify';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { YOUR_DATA_PATHS, type YourDataExport, yourDataExportSchema } from '../../src/contract/your-data.js';
import { DEPOSITS_PATHS } from '../../src/contract/deposits.js';
import { strictErrorBodySchema } from '../../src/contract/errors.js';
import { EXPENSES_PATHS } from '../../src/contract/expenses.js';
import { LEDGER_PATHS } from '../../src/contract/ledger.js';
import { ENDPOINTS } from '../../src/contract/common.js';
import { MAX_STATEMENT_CHARACTERS, STATEMENT_PATHS, statementImportSchema, statementPreviewSchema } from '../../src/contract/statements.js';
import { CSV_DATE_FORMATS } from '../../src/domain/statements/csv-date-formats.js';
import { deepOfx, HOSTILE_DATE, repeatedFitIdOfx, sameRowsCsv, shortLinesCsv, unmatchedTagsOfx } from '../support/hostile-statements.js';
import { depositInput, expenseInput, ledgerOf, okJson } from '../support/schedule-bodies.js';
import { databaseKinds } from '../support/test-databases.js';
import { startTestApp, type TestApp, type UserClient } from '../support/test-app.js';

function fuzzRuns(): number {
  const runs = Number(process.env.FUZZ_RUNS ?? 40);
  if (!Number.isInteger(runs) || runs < 1) throw new Error(`FUZZ_RUNS must be a whole number above 0, not ${process.env.FUZZ_RUNS}`);
  return runs;
}
const RUNS = fuzzRuns();
/** Room for the slowest generated file plus a worker restarted after one that cost too much. */
const ANSWER_MS = 5_000;
const TEST_TIMEOUT_MS = 30_000 + RUNS * 300;

/** What a statement call may answer: read, refused, over a limit (the ledger's rows, a conflict), too large. */
const STATUSES = new Set([200, 400, 409, 413]);
const CODES: Readonly<Record<number, string>> = { 400: 'bad_request', 409: 'conflict', 413: 'payload_too_large' };

// ---- the fixtures ---------------------------------------------------------------------------------

const FIXTURES = new URL('../fixtures/statements/', import.meta.url);

/** Every fixture as the page would send it: UTF-8, or Windows-1252 (latin1 here) when it is not UTF-8. */
function fixtures(extensions: readonly string[]): string[] {
  return fs
    .readdirSync(FIXTURES)
    .filter((name) => extensions.some((extension) => name.endsWith(extension)))
    .sort()
    .map((name) => {
      const bytes = fs.readFileSync(new URL(name, FIXTURES));
      const utf8 = bytes.toString('utf8');
      return utf8.includes('\uFFFD') ? bytes.toString('latin1') : utf8;
    });
}

const CSV_FIXTURES = fixtures(['.csv']);
const OFX_FIXTURES = fixtures(['.ofx', '.qfx']);

// ---- generators -----------------------------------------------------------------------------------

/** Text that means something to one of the readers, or to a spreadsheet, a date or a number parser. */
const pointedText = fc.constantFrom(
  '<',
  '</',
  '>',
  '<OFX>',
  '</OFX>',
  '<STMTTRN>',
  '</STMTTRN>',
  '<STMTRS>',
  '<BANKTRANLIST>',
  '<LEDGERBAL><BALAMT>1<DTASOF>20270101',
  '<TRNAMT>-99999999999.99',
  '<TRNAMT>1e400',
  '<TRNAMT>',
  '<DTPOSTED>99999999',
  '<DTPOSTED>20270230',
  '<FITID>',
  '<FITID>1',
  '<NAME>',
  '<OFX/>',
  '&amp;',
  '&#0;',
  '&#x110000;',
  '&#55296;',
  '&',
  '<!--',
  '-->',
  '<![CDATA[x]]>',
  '<?xml version="1.0"?>',
  '<!DOCTYPE x>',
  '"',
  '""',
  '","',
  ',',
  ';',
  '\t',
  '\r',
  '\n',
  '\r\n',
  '\u0000',
  '\ufeff',
  '\ud800',
  '\udc00',
  '\u202e',
  "=cmd|' /C calc'!A0",
  'NaN',
  'Infinity',
  '-0',
  '(1,000.00)',
  '$-0.00',
  '1,2,3',
  '13/45/2027',
  '2027-02-30',
  '02/30/2027',
  '0000-00-00',
  'Date,Description,Amount',
  'Date,Description,Debit,Credit',
  HOSTILE_DATE,
);

const insertedText = fc.oneof(
  { weight: 3, arbitrary: pointedText },
  { weight: 1, arbitrary: fc.string({ unit: 'binary', maxLength: 60 }) },
  { weight: 1, arbitrary: fc.string({ unit: 'grapheme', maxLength: 30 }) },
);

/** Where in the text a mutation applies, as a fraction of its length (shrinks towards the start). */
const at = fc.double({ min: 0, max: 1, noNaN: true });

type Mutation =
  | { readonly kind: 'truncate'; readonly at: number }
  | { readonly kind: 'delete'; readonly at: number; readonly length: number }
  | { readonly kind: 'insert'; readonly at: number; readonly text: string }
  | { readonly kind: 'repeat-line'; readonly at: number; readonly times: number }
  | { readonly kind: 'drop-closing-tags' }
  | { readonly kind: 'repeat-tag'; readonly at: number; readonly times: number }
  | { readonly kind: 'nest'; readonly at: number; readonly depth: number; readonly closed: boolean }
  | { readonly kind: 'same-fitid' }
  | { readonly kind: 'columns'; readonly at: number; readonly count: number }
  | { readonly kind: 'long-line'; readonly at: number; readonly length: number }
  | { readonly kind: 'line-ends'; readonly to: string }
  | { readonly kind: 'encoding'; readonly how: 'utf8-as-latin1' | 'utf16' | 'replacement' | 'bom' | 'lower-case' };

const mutation: fc.Arbitrary<Mutation> = fc.oneof(
  fc.record({ kind: fc.constant('truncate'), at }),
  fc.record({ kind: fc.constant('delete'), at, length: fc.integer({ min: 1, max: 400 }) }),
  fc.record({ kind: fc.constant('insert'), at, text: insertedText }),
  fc.record({ kind: fc.constant('repeat-line'), at, times: fc.integer({ min: 2, max: 2_000 }) }),
  fc.constant({ kind: 'drop-closing-tags' } as const),
  fc.record({ kind: fc.constant('repeat-tag'), at, times: fc.integer({ min: 2, max: 500 }) }),
  fc.record({ kind: fc.constant('nest'), at, depth: fc.integer({ min: 1, max: 4_000 }), closed: fc.boolean() }),
  fc.constant({ kind: 'same-fitid' } as const),
  fc.record({ kind: fc.constant('columns'), at, count: fc.integer({ min: 2, max: 400 }) }),
  fc.record({ kind: fc.constant('long-line'), at, length: fc.integer({ min: 1_000, max: 300_000 }) }),
  fc.record({ kind: fc.constant('line-ends'), to: fc.constantFrom('\r', '\n', '\r\n', '\n\r', '', '\u2028') }),
  fc.record({ kind: fc.constant('encoding'), how: fc.constantFrom('utf8-as-latin1', 'utf16', 'replacement', 'bom', 'lower-case') }),
);

/** Just past the statement limit (a 413 now and then), so mutations that repeat never build files of hundreds of megabytes. */
const MAX_GENERATED_CHARACTERS = MAX_STATEMENT_CHARACTERS + 1_000;

/** As many repeats of the text as asked, or as fit within MAX_GENERATED_CHARACTERS. */
const timesWithin = (text: string, times: number) => Math.min(times, Math.floor(MAX_GENERATED_CHARACTERS / Math.max(1, text.length)));

const position = (text: string, fraction: number) => Math.min(text.length, Math.floor(fraction * text.length));

/** The start of the line the position is in, and the end of it (before its line break). */
function lineAround(text: string, index: number): { start: number; end: number } {
  const start = text.lastIndexOf('\n', index - 1) + 1;
  const next = text.indexOf('\n', index);
  return { start, end: next < 0 ? text.length : next };
}

function applyMutation(text: string, change: Mutation): string {
  switch (change.kind) {
    case 'truncate':
      return text.slice(0, position(text, change.at));
    case 'delete': {
      const index = position(text, change.at);
      return text.slice(0, index) + text.slice(index + change.length);
    }
    case 'insert': {
      const index = position(text, change.at);
      return text.slice(0, index) + change.text + text.slice(index);
    }
    case 'repeat-line': {
      const { start, end } = lineAround(text, position(text, change.at));
      const line = `${text.slice(start, end)}\n`;
      return text.slice(0, start) + line.repeat(timesWithin(line, change.times)) + text.slice(end + 1);
    }
    case 'drop-closing-tags':
      return text.replace(/<\/[A-Za-z][\w.]*>/g, '');
    case 'repeat-tag': {
      const tags = [...text.matchAll(/<[A-Za-z][\w.]*>/g)];
      const tag = tags[Math.min(tags.length - 1, Math.floor(change.at * tags.length))];
      if (!tag) return text;
      const end = tag.index + tag[0].length;
      return text.slice(0, end) + tag[0].repeat(timesWithin(tag[0], change.times - 1)) + text.slice(end);
    }
    case 'nest': {
      const index = position(text, change.at);
      const nested = change.closed ? `${'<A>'.repeat(change.depth)}x${'</A>'.repeat(change.depth)}` : '<A>'.repeat(change.depth);
      return text.slice(0, index) + nested + text.slice(index);
    }
    case 'same-fitid':
      return text.replace(/<FITID>[^<\r\n]*/gi, '<FITID>SAME');
    case 'columns': {
      const { end } = lineAround(text, position(text, change.at));
      return `${text.slice(0, end)}\n${HOSTILE_DATE},x,-1${',1'.repeat(change.count)}${text.slice(end)}`;
    }
    case 'long-line': {
      const index = position(text, change.at);
      return text.slice(0, index) + 'x'.repeat(change.length) + text.slice(index);
    }
    case 'line-ends':
      return text.replace(/\r\n|\r|\n/g, change.to);
    case 'encoding':
      switch (change.how) {
        case 'utf8-as-latin1':
          return Buffer.from(text, 'utf8').toString('latin1');
        case 'utf16':
          // UTF-16LE bytes read one by one: a NUL after every ASCII character.
          return Buffer.from(`\ufeff${text}`, 'utf16le').toString('latin1');
        case 'replacement':
          return text.replace(/[^\x20-\x7e\r\n]/g, '\uFFFD');
        case 'bom':
          return `\ufeff${text}`;
        case 'lower-case':
          return text.toLowerCase();
      }
  }
}

function mutated(samples: readonly string[]): fc.Arbitrary<string> {
  return fc
    .record({ sample: fc.constantFrom(...samples), changes: fc.array(mutation, { minLength: 1, maxLength: 4 }) })
    .map(({ sample, changes }) => changes.reduce((text, change) => applyMutation(text, change).slice(0, MAX_GENERATED_CHARACTERS), sample));
}

const randomText: fc.Arbitrary<string> = fc.oneof(
  fc.string({ unit: 'binary', maxLength: 3_000 }),
  fc.string({ unit: 'grapheme', maxLength: 500 }),
  fc.array(pointedText, { maxLength: 200 }).map((parts) => parts.join('')),
  fc.array(fc.array(insertedText, { maxLength: 12 }), { maxLength: 60 }).map((lines) => lines.map((cells) => cells.join(',')).join('\n')),
  fc.constantFrom('', ' ', '\n', '\u0000', '\ufeff', 'OFXHEADER:100', '<OFX>', '<OFX></OFX>', 'Date,Description,Amount', ','),
);

/** The shapes of issue 22's findings, at sizes a fuzz run can afford; some just past the parsers' bounds. */
const hostileShape: fc.Arbitrary<string> = fc.oneof(
  fc.integer({ min: 1, max: 400 }).map(sameRowsCsv),
  fc.integer({ min: 19_990, max: 20_010 }).map(shortLinesCsv),
  fc.integer({ min: 1, max: 2_000 }).map(shortLinesCsv),
  fc.record({ unique: fc.nat(300), repeats: fc.nat(300) }).map(({ unique, repeats }) => repeatedFitIdOfx(unique, repeats)),
  fc.integer({ min: 9_995, max: 10_005 }).map((repeats) => repeatedFitIdOfx(0, repeats)),
  fc.integer({ min: 1, max: 20_000 }).map(unmatchedTagsOfx),
  fc.record({ depth: fc.integer({ min: 1, max: 3_000 }), closed: fc.boolean() }).map(({ depth, closed }) => deepOfx(depth, closed)),
  fc.integer({ min: 90, max: 400 }).map((count) => `Date,Description,Amount\n${HOSTILE_DATE},x,-1${',1'.repeat(count)}\n`),
  fc.integer({ min: 1_000, max: 500_000 }).map((length) => `Date,Description,Amount\n${HOSTILE_DATE},${'x'.repeat(length)},-1\n`),
  fc.integer({ min: 1, max: 3_000 }).map((count) => `Date,Description,Amount\n${'"'.repeat(count)}\n`),
);

const mapping = fc.oneof(
  fc.record({
    date: fc.nat(12),
    description: fc.nat(12),
    amount: fc.nat(12),
    dateFormat: fc.constantFrom(...CSV_DATE_FORMATS),
  }),
  fc.record({
    date: fc.nat(12),
    description: fc.nat(12),
    debit: fc.nat(12),
    credit: fc.nat(12),
    dateFormat: fc.constantFrom(...CSV_DATE_FORMATS),
  }),
);

const CSV_NAMES = ['statement.csv', 'STATEMENT.CSV'];
const OFX_NAMES = ['statement.ofx', 'statement.qfx', 'Bank Export.QFX'];

/** A file name of the content's kind mostly, of the other kind now and then. */
function fileName(kind: 'csv' | 'ofx' | 'any'): fc.Arbitrary<string> {
  const own = kind === 'csv' ? CSV_NAMES : kind === 'ofx' ? OFX_NAMES : [...CSV_NAMES, ...OFX_NAMES];
  return fc.oneof({ weight: 4, arbitrary: fc.constantFrom(...own) }, { weight: 1, arbitrary: fc.constantFrom(...CSV_NAMES, ...OFX_NAMES) });
}

interface StatementRequest {
  readonly call: 'preview' | 'import';
  readonly body: {
    readonly fileName: string;
    readonly content: string;
    readonly mapping?: unknown;
    readonly decisions?: unknown;
  };
}

function statementRequests(content: fc.Arbitrary<string>, kind: 'csv' | 'ofx' | 'any'): fc.Arbitrary<StatementRequest> {
  return fc
    .record({
      call: fc.oneof({ weight: 3, arbitrary: fc.constant('preview' as const) }, { weight: 1, arbitrary: fc.constant('import' as const) }),
      fileName: fileName(kind),
      content,
      mapping: fc.option(mapping, { freq: 5, nil: undefined }),
      decisions: fc.option(fc.array(fc.record({ index: fc.nat(40), action: fc.constantFrom('match', 'new', 'skip') }), { maxLength: 5 }), {
        freq: 4,
        nil: undefined,
      }),
    })
    .map(({ call, fileName: name, content: text, mapping: columns, decisions }) => ({
      call,
      body: {
        fileName: name,
        content: text,
        ...(columns && { mapping: columns }),
        ...(call === 'import' && decisions && { decisions }),
      },
    }));
}

// ---- the run --------------------------------------------------------------------------------------

/** A ledger for the samples (January 2027: Acme's paychecks, Rent, Phone) and a few $1.00 debits on HOSTILE_DATE to match. */
async function smallLedger(user: UserClient): Promise<void> {
  okJson(await user.post(DEPOSITS_PATHS.add, depositInput({ name: 'Acme', amount: 1000, startDate: '2027-01-01', frequency: 'BW' })));
  okJson(await user.post(EXPENSES_PATHS.add, expenseInput({ name: 'Rent', amount: 1200, day: 1 })));
  okJson(await user.post(EXPENSES_PATHS.add, expenseInput({ name: 'Phone', amount: 50.55, day: 15 })));
  ledgerOf(await user.post(LEDGER_PATHS.create, { ledger: { startDate: '2027-01-01', endDate: '2027-01-31', currentBalance: 500 } }));
  for (let index = 0; index < 10; index += 1) {
    ledgerOf(await user.post(LEDGER_PATHS.addTransaction, { date: HOSTILE_DATE, name: `Card ${index}`, type: 'D', amount: 1 }));
  }
}

describe.each(databaseKinds())('fuzzing the statement readers on %s', (kind) => {
  let test: TestApp;
  let reader: UserClient;
  let importer: UserClient;
  /** The reader's data before any preview: previews change nothing. */
  let readerData: YourDataExport;
  /** The importer's data before any import: restored after each import that answered 200, so its ledger stays small. */
  let importerData: YourDataExport;

  beforeAll(async () => {
    test = await startTestApp(kind);
    reader = test.as('statement-reader');
    importer = test.as('statement-importer');
    await smallLedger(reader);
    await smallLedger(importer);
    readerData = yourDataExportSchema.parse(okJson(await reader.get(YOUR_DATA_PATHS.export)));
    importerData = yourDataExportSchema.parse(okJson(await importer.get(YOUR_DATA_PATHS.export)));
  });
  afterAll(async () => {
    await test?.close();
  });

  /** The answer is the contract's, within the time bound, and never a 5xx. */
  function expectContractAnswer(request: StatementRequest, response: LightMyRequestResponse, ms: number): void {
    const shown = `${request.call} ${request.body.fileName} (${request.body.content.length} characters) answered ${response.statusCode}: ${response.body.slice(0, 300)}`;
    expect(ms, shown).toBeLessThan(ANSWER_MS);
    expect(response.statusCode, shown).toBeLessThan(500);
    expect(STATUSES.has(response.statusCode), shown).toBe(true);
    expect(response.headers['content-type'], shown).toMatch(/^application\/json/);
    const body: unknown = response.json();
    if (response.statusCode === 200) {
      if (request.call === 'preview') statementPreviewSchema.parse(body);
      else statementImportSchema.parse(body);
    } else {
      const refusal = strictErrorBodySchema.parse(body);
      expect(refusal.error.code, shown).toBe(CODES[response.statusCode]);
    }
  }

  /** Sends the file and checks the answer; answers its status and how long it took. */
  async function send(request: StatementRequest): Promise<{ status: number; ms: number }> {
    const user = request.call === 'preview' ? reader : importer;
    const path = request.call === 'preview' ? STATEMENT_PATHS.preview : STATEMENT_PATHS.import;
    const started = performance.now();
    const response = await user.post(path, request.body);
    const took = performance.now() - started;
    expectContractAnswer(request, response, took);
    if (request.call === 'import' && response.statusCode === 200) okJson(await importer.post(YOUR_DATA_PATHS.restore, importerData));
    return { status: response.statusCode, ms: took };
  }

  const properties: readonly [string, fc.Arbitrary<StatementRequest>][] = [
    ['random text', statementRequests(randomText, 'any')],
    ['mutated CSV fixtures', statementRequests(mutated(CSV_FIXTURES), 'csv')],
    ['mutated OFX and QFX fixtures', statementRequests(mutated(OFX_FIXTURES), 'ofx')],
    ['issue 22 shapes at small sizes', statementRequests(hostileShape, 'any')],
  ];

  it.each(properties)(
    `%s: ${RUNS} generated files, each answered within ${ANSWER_MS} ms as the contract says, never 5xx`,
    async (name, requests) => {
      const answered = new Map<string, number>();
      let slowest = { ms: 0, file: '' };
      await fc.assert(
        fc.asyncProperty(requests, async (request) => {
          const { status, ms } = await send(request);
          const key = `${request.call} ${status}`;
          answered.set(key, (answered.get(key) ?? 0) + 1);
          if (ms > slowest.ms) slowest = { ms, file: `${key}, ${request.body.fileName}, ${request.body.content.length} characters` };
        }),
        { numRuns: RUNS },
      );
      // How deep the run reached (a run of refusals only would say little about the readers), and its slowest answer.
      const counts = JSON.stringify(Object.fromEntries([...answered].sort()));
      console.log(`[fuzz] statements on ${kind}, ${name}: ${counts}; slowest ${Math.round(slowest.ms)} ms (${slowest.file})`);
    },
    TEST_TIMEOUT_MS,
  );

  it('still answers /api/me after every file, and the previews changed nothing', async () => {
    expect((await reader.get(ENDPOINTS.getProfile.path)).statusCode).toBe(200);
    expect(okJson(await reader.get(YOUR_DATA_PATHS.export))).toEqual({ ...readerData, exportedAt: expect.any(String) });
  });
});
