/** What every benchmark reports, the table printed at the end, and bench/results.json. */
import fs from 'node:fs';
import path from 'node:path';
import { REPO_ROOT } from './build.js';

export interface BenchResult {
  readonly name: string;
  /** Leftover's figure (its unit is in `unit`). */
  readonly ours: number;
  /** The baseline's figure, measured in the same run. */
  readonly baseline: number;
  /** ours / baseline. */
  readonly ratio: number;
  /** For example ">= 0.5" or "<= 1.5": the ratio must satisfy it. */
  readonly target: string;
  readonly pass: boolean;
  readonly unit: string;
  readonly note?: string;
}

/** A benchmark some of whose parts could not run: the figures of those that did, and why the others did not. */
export class PartlyRunError extends Error {
  constructor(
    message: string,
    readonly results: readonly BenchResult[],
  ) {
    super(message);
    this.name = 'PartlyRunError';
  }
}

export function result(
  name: string,
  unit: string,
  ours: number,
  baseline: number,
  target: { readonly atLeast?: number; readonly atMost?: number },
  note?: string,
): BenchResult {
  const ratio = ours / baseline;
  const pass = target.atLeast !== undefined ? ratio >= target.atLeast : ratio <= (target.atMost ?? Number.POSITIVE_INFINITY);
  const targetText = target.atLeast !== undefined ? `>= ${target.atLeast}` : `<= ${target.atMost}`;
  return {
    name,
    ours: round3(ours),
    baseline: round3(baseline),
    ratio: round3(ratio),
    target: targetText,
    pass,
    unit,
    ...(note ? { note } : {}),
  };
}

function round3(value: number): number {
  return Math.round(value * 1000) / 1000;
}

export function printTable(results: readonly BenchResult[]): void {
  const header = ['benchmark', 'ours', 'baseline', 'unit', 'ratio', 'target', 'pass'];
  const rows = results.map((entry) => [
    entry.name,
    String(entry.ours),
    String(entry.baseline),
    entry.unit,
    entry.ratio.toFixed(3),
    entry.target,
    entry.pass ? 'PASS' : 'FAIL',
  ]);
  const widths = header.map((title, column) => Math.max(title.length, ...rows.map((row) => (row[column] ?? '').length)));
  const line = (cells: readonly string[]) => cells.map((cell, column) => cell.padEnd(widths[column] ?? 0)).join('  ');
  console.log(line(header));
  console.log(widths.map((width) => '-'.repeat(width)).join('  '));
  for (const row of rows) console.log(line(row));
}

export const RESULTS_FILE = path.join(REPO_ROOT, 'bench/results.json');

export function writeResults(results: readonly BenchResult[]): void {
  fs.writeFileSync(RESULTS_FILE, `${JSON.stringify(results, null, 2)}\n`);
}
