import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

/**
 * Run in a Node process of its own: the sync process is shared by every app of a process, and this
 * test file shares its process's modules with other files (vitest's isolate: false), whose apps
 * would share it too.
 */
const SCRIPT = `
import fs from 'node:fs';
import { BankSyncProcess } from ${JSON.stringify(fileURLToPath(new URL('./bank-sync-runner.ts', import.meta.url)))};
const log = { warn: () => undefined };
const syncProcesses = () => fs.readdirSync('/proc').filter((name) => /^\\d+$/.test(name)).filter((pid) => {
  try {
    const stat = fs.readFileSync('/proc/' + pid + '/stat', 'utf8');
    const parent = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
    return parent === process.pid && fs.readFileSync('/proc/' + pid + '/cmdline', 'utf8').includes('background-process-entry');
  } catch { return false; }
}).map(Number);
const settle = () => new Promise((resolve) => setTimeout(resolve, 300));
const webPage = { contentType: 'text/html', body: new TextEncoder().encode('<html>'), request: { timeZone: 'UTC' }, secrets: [] };
const seen = {};
const first = new BankSyncProcess(log);
const second = new BankSyncProcess(log);
seen.answers = [(await first.readAnswer(webPage)).kind, (await second.readAnswer(webPage)).kind];
seen.withTwo = syncProcesses();
await first.close();
seen.secondAfterFirstClosed = (await second.readAnswer(webPage)).kind;
seen.withOne = syncProcesses();
await second.close();
await settle();
seen.withNone = syncProcesses();
const third = new BankSyncProcess(log);
await third.readAnswer(webPage);
seen.withThird = syncProcesses();
await third.close();
console.log(JSON.stringify(seen));
`;

describe.runIf(process.platform === 'linux')('the bank sync process', () => {
  it('is one for every app of a process, and ends when the last app using it closes', async () => {
    const output = await new Promise<string>((resolve, reject) =>
      execFile(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', SCRIPT], { timeout: 30_000 }, (error, stdout, stderr) =>
        error ? reject(new Error(`${error.message}\n${stderr}`)) : resolve(stdout),
      ),
    );
    const seen = JSON.parse(output.trim().split('\n').at(-1) ?? '{}') as Record<string, unknown>;
    expect(seen.answers).toEqual(['not-json', 'not-json']);
    expect(seen.withTwo).toHaveLength(1);
    expect(seen.secondAfterFirstClosed).toBe('not-json');
    expect(seen.withOne).toEqual(seen.withTwo);
    expect(seen.withNone).toEqual([]);
    expect(seen.withThird).toHaveLength(1);
    expect(seen.withThird).not.toEqual(seen.withTwo);
  });
});
