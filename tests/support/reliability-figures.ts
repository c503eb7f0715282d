/**
 * The figures a reliability run measured (requests, errors, writes acknowledged vs found, p99),
 * printed and kept in reports/reliability/<name>.json so docs/RELIABILITY.md can quote a real run.
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const REPORTS = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../reports/reliability');

export function recordFigures(name: string, figures: Readonly<Record<string, unknown>>): void {
  const record = { name, measuredAt: new Date().toISOString(), node: process.version, ...figures };
  console.log(`[reliability] ${name}: ${JSON.stringify(figures)}`);
  fs.mkdirSync(REPORTS, { recursive: true });
  fs.writeFileSync(path.join(REPORTS, `${name}.json`), `${JSON.stringify(record, null, 2)}\n`);
}
