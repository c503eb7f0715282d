import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BACKGROUND_THREAD_NICENESS } from './background-priority.js';
import { BackgroundProcess, SYSTEM_COMMANDS } from './background-process.js';
import type { BankSyncTask, BankSyncTaskOutcome } from './bank-sync-worker.js';

const log = { warn: () => undefined };

interface ThreadPriority {
  readonly tid: number;
  /** Field 19 of /proc/<pid>/task/<tid>/stat. */
  readonly nice: number;
  /** Field 41: 0 is SCHED_OTHER, 5 is SCHED_IDLE. */
  readonly policy: number;
}

/** The nice value and scheduling policy of each thread of a process. */
function threadPriorities(pid: number): ThreadPriority[] {
  return fs.readdirSync(`/proc/${pid}/task`).map((tid) => {
    const stat = fs.readFileSync(`/proc/${pid}/task/${tid}/stat`, 'utf8');
    // The thread's name may hold spaces and parentheses: the fields are counted after its closing one.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return { tid: Number(tid), nice: Number(fields[16]), policy: Number(fields[38]) };
  });
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

async function until(condition: () => boolean): Promise<void> {
  for (let waited = 0; !condition(); waited += 20) {
    if (waited > 10_000) throw new Error('gave up waiting');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

describe('a background process', () => {
  // A bridge that never answers: a task asking it stays under way until its process ends.
  let silent: http.Server;
  let silentUrl = '';
  beforeAll(async () => {
    silent = http.createServer(() => undefined);
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    silentUrl = `http://user:secret@127.0.0.1:${(silent.address() as AddressInfo).port}/simplefin`;
  });
  afterAll(async () => {
    silent.closeAllConnections();
    await new Promise((resolve) => silent.close(resolve));
  });

  it('runs the task module in a process of its own, below the serving thread, and ends it on close', async () => {
    const background = new BackgroundProcess<BankSyncTask, BankSyncTaskOutcome>('bank-sync-worker', 'the test process', log);
    await expect(background.run({ kind: 'ready' })).resolves.toEqual({ ok: true, value: null });
    const pid = background.processId;
    expect(pid).toBeTypeOf('number');
    expect(pid).not.toBe(process.pid);
    if (pid === undefined) return;
    // A refusal inside a task is that task's outcome; the process goes on.
    const refused = await background.run({
      kind: 'read-accounts',
      answer: { contentType: 'text/html', body: new TextEncoder().encode('<html>'), request: { timeZone: 'UTC' }, secrets: [] },
    });
    expect(refused).toMatchObject({ ok: true, value: { kind: 'not-json' } });
    expect(background.processId).toBe(pid);
    if (process.platform === 'linux' && fs.existsSync('/usr/bin/chrt')) {
      // Every thread, V8's compiler and collector threads included, in the idle class (decision 0115).
      const policies = threadPriorities(pid).map((thread) => thread.policy);
      expect(policies.length).toBeGreaterThan(1);
      expect(new Set(policies)).toEqual(new Set([5]));
    }
    await background.close();
    expect(alive(pid)).toBe(false);
    expect(background.processId).toBeUndefined();
  });

  it('fails the tasks under way when its process dies, and starts a new process for the next', async () => {
    const background = new BackgroundProcess<BankSyncTask, BankSyncTaskOutcome>('bank-sync-worker', 'the test process', log);
    await background.run({ kind: 'ready' });
    const first = background.processId;
    if (first === undefined) throw new Error('no process');
    const hanging = background.run({
      kind: 'fetch',
      accessUrl: silentUrl,
      request: { timeZone: 'UTC' },
      bridge: { allowPrivate: true, timeoutMs: 60_000 },
    });
    process.kill(first, 'SIGKILL');
    await expect(hanging).rejects.toThrow(/the test process stopped/);
    await until(() => !alive(first));
    await expect(background.run({ kind: 'ready' })).resolves.toEqual({ ok: true, value: null });
    expect(background.processId).not.toBe(first);
    await background.close();
  });

  it('closed while it starts, fails the task that waited for it and starts afresh for the next', async () => {
    const background = new BackgroundProcess<BankSyncTask, BankSyncTaskOutcome>('bank-sync-worker', 'the test process', log);
    const waiting = background.run({ kind: 'ready' });
    const closing = background.close();
    await expect(waiting).rejects.toThrow(/the test process was closed/);
    await closing;
    expect(background.processId).toBeUndefined();
    await expect(background.run({ kind: 'ready' })).resolves.toEqual({ ok: true, value: null });
    const pid = background.processId;
    await background.close();
    if (pid !== undefined) await until(() => !alive(pid));
  });

  it('fails a task past its time only once its process has exited, and runs the task that waited behind it in a new one', async () => {
    const background = new BackgroundProcess<BankSyncTask, BankSyncTaskOutcome>('bank-sync-worker', 'the test process', log, {
      taskTimeoutMs: 1_500,
    });
    await background.run({ kind: 'ready' });
    const first = background.processId;
    if (first === undefined) throw new Error('no process');
    let exitedFirst: boolean | undefined;
    const hanging = background
      .run({
        kind: 'fetch',
        accessUrl: silentUrl,
        request: { timeZone: 'UTC' },
        bridge: { allowPrivate: true, timeoutMs: 60_000 },
      })
      .catch((error: unknown) => {
        exitedFirst = !alive(first);
        throw error;
      });
    // Sent after the hanging task: it waits here, and its own time starts only when it is sent.
    const behind = background.run({ kind: 'ready' });
    await expect(hanging).rejects.toThrow(/the test process took more than 1.5 s/);
    expect(exitedFirst).toBe(true);
    await expect(behind).resolves.toEqual({ ok: true, value: null });
    expect(background.processId).not.toBe(first);
    await background.close();
  });

  it('fails a task that cannot be copied to the process, and goes on with the same process', async () => {
    const background = new BackgroundProcess<BankSyncTask, BankSyncTaskOutcome>('bank-sync-worker', 'the test process', log);
    await background.run({ kind: 'ready' });
    const pid = background.processId;
    const uncopyable = { kind: 'ready', then: undefined, call: () => 1 } as unknown as BankSyncTask;
    await expect(background.run(uncopyable)).rejects.toThrow(/could not be cloned/);
    await expect(background.run({ kind: 'ready' })).resolves.toEqual({ ok: true, value: null });
    expect(background.processId).toBe(pid);
    await background.close();
  });

  // Decision 0115's fallbacks, on Linux where /proc says how each thread is scheduled.
  it.runIf(process.platform === 'linux')('where chrt is refused, starts the process niced to 19 through nice instead', async () => {
    // A chrt whose trial run fails, as a container's seccomp rules make the real one fail.
    const background = new BackgroundProcess<BankSyncTask, BankSyncTaskOutcome>('bank-sync-worker', 'the test process', log, {
      commands: { ...SYSTEM_COMMANDS, chrt: ['/bin/false'] },
    });
    await expect(background.run({ kind: 'ready' })).resolves.toEqual({ ok: true, value: null });
    const pid = background.processId;
    if (pid === undefined) throw new Error('no process');
    const threads = threadPriorities(pid);
    expect(threads.length).toBeGreaterThan(1);
    expect(new Set(threads.map((thread) => thread.policy))).toEqual(new Set([0]));
    expect(new Set(threads.map((thread) => thread.nice))).toEqual(new Set([BACKGROUND_THREAD_NICENESS]));
    await background.close();
    expect(alive(pid)).toBe(false);
  });

  it.runIf(process.platform === 'linux')('with neither chrt nor nice, nices the started process by its id', async () => {
    const background = new BackgroundProcess<BankSyncTask, BankSyncTaskOutcome>('bank-sync-worker', 'the test process', log, {
      commands: { chrt: [], nice: [] },
    });
    await expect(background.run({ kind: 'ready' })).resolves.toEqual({ ok: true, value: null });
    const pid = background.processId;
    if (pid === undefined) throw new Error('no process');
    // The process's own thread (its id is the process's); threads it started before the call keep the server's.
    expect(threadPriorities(pid).find((thread) => thread.tid === pid)?.nice).toBe(BACKGROUND_THREAD_NICENESS);
    await background.close();
    expect(alive(pid)).toBe(false);
  });
});
