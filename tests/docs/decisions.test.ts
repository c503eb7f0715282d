/**
 * The decision records keep the format docs/decisions/README.md describes: a status and a date under
 * each title, links that name existing decisions and are written on both sides, every decision in the
 * README's table as its file says, and each "Measurements:" line naming a heading of PERFORMANCE.md.
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const DOCS = path.resolve(import.meta.dirname, '../../docs');
const DECISIONS = path.join(DOCS, 'decisions');
const FORMAT = 'see "The format of a decision" in docs/decisions/README.md';

/** The header lines a decision may have under its title, in this order; Status and Date are required. */
const KEYS = ['Status', 'Date', 'Supersedes', 'Partly superseded by', 'Partly supersedes'] as const;
type Key = (typeof KEYS)[number];

interface Link {
  readonly number: string;
  readonly file: string;
}

interface Decision {
  readonly file: string;
  readonly number: string;
  readonly title: string;
  readonly header: Partial<Record<Key, string>>;
  readonly body: string;
}

const LINK = /\[(\d{4})\]\(([^)\s]+)\)/g;

function linksIn(text: string): Link[] {
  return [...text.matchAll(LINK)].map((match) => ({ number: match[1] ?? '', file: match[2] ?? '' }));
}

/**
 * The title, then the header: lines "Key: value" for the keys above, blank lines between them
 * allowed, up to the first other line.
 */
function parseDecision(file: string, text: string): Decision {
  const lines = text.split('\n');
  const title = lines[0]?.startsWith('# ') ? lines[0].slice(2) : '';
  const header: Partial<Record<Key, string>> = {};
  const order: Key[] = [];
  let index = 1;
  for (; index < lines.length; index += 1) {
    const line = lines[index] ?? '';
    if (line.trim() === '') continue;
    const key = KEYS.find((name) => line.startsWith(`${name}: `));
    if (!key) break;
    if (header[key] !== undefined) throw new Error(`${file}: two "${key}:" lines (${FORMAT})`);
    header[key] = line.slice(key.length + 2);
    order.push(key);
  }
  const expectedOrder = KEYS.filter((key) => order.includes(key));
  if (order.join() !== expectedOrder.join()) {
    throw new Error(`${file}: header lines in the order ${order.join(', ')}; expected ${expectedOrder.join(', ')} (${FORMAT})`);
  }
  return { file, number: file.slice(0, 4), title, header, body: lines.slice(index).join('\n') };
}

const files = fs
  .readdirSync(DECISIONS)
  .filter((file) => file !== 'README.md')
  .sort();
const decisions = files
  .filter((file) => /^\d{4}-[a-z0-9-]+\.md$/.test(file))
  .map((file) => parseDecision(file, fs.readFileSync(path.join(DECISIONS, file), 'utf8')));
const byNumber = new Map(decisions.map((decision) => [decision.number, decision]));

/** Every link of a header line, each checked to name an existing decision by its number and file. */
function problemsOfLinks(decision: Decision, key: Key): string[] {
  const value = decision.header[key];
  if (value === undefined) return [];
  const links = linksIn(value);
  if (links.length === 0) return [`${decision.file}: "${key}:" names no decision as [NNNN](NNNN-....md)`];
  return links.flatMap((link) => {
    const target = byNumber.get(link.number);
    if (!target) return [`${decision.file}: "${key}:" names ${link.number}, which is no decision`];
    if (target.file !== link.file) return [`${decision.file}: "${key}:" links ${link.number} to ${link.file}, not to ${target.file}`];
    if (target.number === decision.number) return [`${decision.file}: "${key}:" names itself`];
    return [];
  });
}

/** Numbers linked from a header line. */
function numbersIn(decision: Decision, key: Key): string[] {
  return linksIn(decision.header[key] ?? '').map((link) => link.number);
}

/** The README's table rows by number: `| [NNNN](file) | title | status | date |`. */
function indexRows(): Map<string, { file: string; title: string; status: string; date: string }> {
  const rows = new Map<string, { file: string; title: string; status: string; date: string }>();
  for (const line of fs.readFileSync(path.join(DECISIONS, 'README.md'), 'utf8').split('\n')) {
    const match = /^\| \[(\d{4})\]\(([^)]+)\) +\| (.+?) +\| (.+?) +\| (\S+) +\|$/.exec(line);
    if (!match) continue;
    const [, number = '', file = '', title = '', status = '', date = ''] = match;
    if (rows.has(number)) throw new Error(`docs/decisions/README.md lists ${number} twice`);
    rows.set(number, { file, title, status, date });
  }
  return rows;
}

/** GitHub's anchor of a heading: lower case, punctuation dropped, spaces as hyphens. */
function anchorOf(heading: string): string {
  return heading
    .toLowerCase()
    .replace(/[^\p{L}\p{N} _-]/gu, '')
    .replace(/ /g, '-');
}

describe('the decision records', () => {
  it('are files named NNNN-words.md, one per number', () => {
    expect(
      files.filter((file) => !/^\d{4}-[a-z0-9-]+\.md$/.test(file)),
      'files in docs/decisions/ not named NNNN-words.md',
    ).toEqual([]);
    const numbers = decisions.map((decision) => decision.number);
    expect(
      numbers.filter((number, index) => numbers.indexOf(number) !== index),
      'decision numbers used twice',
    ).toEqual([]);
  });

  it('each have a title, a Status and a Date under it', () => {
    const problems = decisions.flatMap((decision) => {
      const { file, title, header } = decision;
      const found: string[] = [];
      if (!title) found.push(`${file}: the first line is not "# <title>"`);
      if (header.Status === undefined)
        found.push(`${file}: no "Status: Accepted" (or "Status: Superseded by [NNNN](...)") under the title`);
      else if (header.Status !== 'Accepted' && !/^Superseded by \[\d{4}\]\([^)\s]+\)$/.test(header.Status)) {
        found.push(`${file}: "Status: ${header.Status}" is neither "Accepted" nor "Superseded by [NNNN](NNNN-....md)"`);
      }
      const date = header.Date;
      if (date === undefined) found.push(`${file}: no "Date: YYYY-MM-DD" under the title`);
      else if (!/^\d{4}-\d{2}-\d{2}$/.test(date) || new Date(`${date}T00:00:00Z`).toISOString().slice(0, 10) !== date) {
        found.push(`${file}: "Date: ${date}" is not a date written YYYY-MM-DD`);
      }
      return found;
    });
    expect(problems, `decisions without their header (${FORMAT})`).toEqual([]);
  });

  it('link only to decisions that exist, by number and file', () => {
    const problems = decisions.flatMap((decision) => [
      ...(decision.header.Status?.startsWith('Superseded by') ? problemsOfLinks(decision, 'Status') : []),
      ...problemsOfLinks(decision, 'Supersedes'),
      ...problemsOfLinks(decision, 'Partly superseded by'),
      ...problemsOfLinks(decision, 'Partly supersedes'),
    ]);
    expect(problems, 'links in decision headers').toEqual([]);
  });

  it('write every supersession on both sides, the later decision superseding the earlier', () => {
    const problems = decisions.flatMap((decision) => {
      const found: string[] = [];
      for (const later of numbersIn(decision, 'Status')) {
        if (!numbersIn(byNumber.get(later) ?? decision, 'Supersedes').includes(decision.number)) {
          found.push(`${decision.file} is superseded by ${later}, whose "Supersedes:" does not name ${decision.number}`);
        }
      }
      for (const earlier of numbersIn(decision, 'Supersedes')) {
        if (!numbersIn(byNumber.get(earlier) ?? decision, 'Status').includes(decision.number)) {
          found.push(`${decision.file} supersedes ${earlier}, whose status is not "Superseded by [${decision.number}](...)"`);
        }
      }
      for (const later of numbersIn(decision, 'Partly superseded by')) {
        if (!numbersIn(byNumber.get(later) ?? decision, 'Partly supersedes').includes(decision.number)) {
          found.push(`${decision.file} is partly superseded by ${later}, whose "Partly supersedes:" does not name ${decision.number}`);
        }
      }
      for (const earlier of numbersIn(decision, 'Partly supersedes')) {
        if (!numbersIn(byNumber.get(earlier) ?? decision, 'Partly superseded by').includes(decision.number)) {
          found.push(`${decision.file} partly supersedes ${earlier}, whose "Partly superseded by:" does not name ${decision.number}`);
        }
      }
      const earlierThanLinks = [...numbersIn(decision, 'Supersedes'), ...numbersIn(decision, 'Partly supersedes')];
      for (const earlier of earlierThanLinks) {
        if (earlier >= decision.number) found.push(`${decision.file} supersedes ${earlier}, which is not an earlier decision`);
      }
      return found;
    });
    expect(problems, 'supersessions').toEqual([]);
  });

  it('are each listed in docs/decisions/README.md with their title, status and date', () => {
    const rows = indexRows();
    const problems = decisions.flatMap(({ file, number, title, header }) => {
      const row = rows.get(number);
      if (!row) return [`${file} is not in the table of docs/decisions/README.md`];
      const found: string[] = [];
      if (row.file !== file) found.push(`README.md links ${number} to ${row.file}, not to ${file}`);
      if (row.title !== title) found.push(`README.md titles ${number} "${row.title}"; the file says "${title}"`);
      if (header.Status !== undefined && !row.status.startsWith(header.Status)) {
        found.push(`README.md gives ${number} the status "${row.status}"; the file says "${header.Status}"`);
      }
      for (const later of numbersIn({ file, number, title, header, body: '' }, 'Partly superseded by')) {
        if (!row.status.includes(`[${later}]`))
          found.push(`README.md's status of ${number} does not say it is partly superseded by ${later}`);
      }
      if (header.Date !== undefined && row.date !== header.Date) {
        found.push(`README.md dates ${number} ${row.date}; the file says ${header.Date}`);
      }
      return found;
    });
    const listed = [...rows.keys()]
      .filter((number) => !byNumber.has(number))
      .map((number) => `README.md lists ${number}, which is no decision`);
    expect([...problems, ...listed], 'the table of docs/decisions/README.md').toEqual([]);
  });

  it('point at measurements that docs/PERFORMANCE.md has', () => {
    const anchors = new Set(
      fs
        .readFileSync(path.join(DOCS, 'PERFORMANCE.md'), 'utf8')
        .split('\n')
        .filter((line) => /^#{1,6} /.test(line))
        .map((line) => anchorOf(line.replace(/^#+ /, ''))),
    );
    const problems = decisions.flatMap(({ file, body }) =>
      body
        .split('\n')
        .filter((line) => line.startsWith('Measurements:'))
        .flatMap((line) => {
          const target = /\]\(\.\.\/PERFORMANCE\.md#([^)\s]+)\)$/.exec(line)?.[1];
          if (!target) return [`${file}: "${line}" is not "Measurements: [docs/PERFORMANCE.md#...](../PERFORMANCE.md#...)"`];
          return anchors.has(target) ? [] : [`${file}: docs/PERFORMANCE.md has no heading #${target}`];
        }),
    );
    expect(problems, 'measurement pointers').toEqual([]);
  });

  it('read a header as the README describes it, and refuse one out of order', () => {
    const header = [
      '# A title',
      '',
      'Status: Accepted',
      '',
      'Date: 2026-11-27',
      'Supersedes: [0015](0015-x.md)',
      '',
      '## Context',
      'Date: no',
    ];
    expect(parseDecision('0059-a-title.md', header.join('\n'))).toEqual({
      file: '0059-a-title.md',
      number: '0059',
      title: 'A title',
      header: { Status: 'Accepted', Date: '2026-11-27', Supersedes: '[0015](0015-x.md)' },
      body: '## Context\nDate: no',
    });
    expect(() => parseDecision('0059-a-title.md', '# A title\n\nDate: 2026-11-27\n\nStatus: Accepted\n')).toThrow(
      '0059-a-title.md: header lines in the order Date, Status; expected Status, Date',
    );
    expect(anchorOf("Decision 0041: start fast, and idle light (issue 27's)")).toBe('decision-0041-start-fast-and-idle-light-issue-27s');
    expect(linksIn('Superseded by [0047](0047-each-users-own-today.md), [0048](x.md)')).toEqual([
      { number: '0047', file: '0047-each-users-own-today.md' },
      { number: '0048', file: 'x.md' },
    ]);
  });
});
