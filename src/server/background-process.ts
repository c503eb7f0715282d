/**
 * One background process (decision 0115): the bank sync's steps run in a Node process of their own,
 * started on first use, stopped a minute after its last task, each task bounded in time, and the
 * whole process (its JavaScript thread, V8's compiler and garbage collector threads, libuv's pool)
 * below the thread that serves every user.
 *
 * Why a process and not a thread (decision 0098's worker): V8's compiler and collector threads are
 * shared by every thread of a process and run at the process's priority, so a sync in a worker
 * thread niced to 19 still had about half a core of V8's own work done for it at the serving
 * thread's priority (benchmark 14 under `perf sched`: the worker 0.77 of a core during the syncs,
 * V8's four threads 0.49). In a process of its own all of it is the sync's, at the sync's priority.
 * And on Linux that priority is the `SCHED_IDLE` class, not nice 19: the kernel's scheduler (EEVDF)
 * lets a nice-19 task finish its slice (4 to 5.5 ms seen) before a thread that wakes to serve a
 * request gets the core, where an idle-class task gives it up at once. The cost: a machine whose
 * cores are all busy with other work starves the sync; its tasks are bounded in time (a task past
 * TASK_TIMEOUT_MS ends the process, which rolls its transaction back and frees SQLite's lock).
 *
 * The task module is the same a worker thread would run: a default export that takes a task and
 * answers its outcome. Tasks and outcomes cross as structured clones (`serialization: 'advanced'`).
 */
import { type ChildProcess, fork } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { BACKGROUND_THREAD_NICENESS } from './background-priority.js';

/** Far beyond any task (benchmark 14's sync of 1,000 transactions takes well under a second). */
const TASK_TIMEOUT_MS = 120_000;
/** A server that needs the process only now and then frees it a minute after the last task. */
const IDLE_MS = 60_000;
/** How long a closing process may take to end after its channel is closed, before it is killed. */
const CLOSE_GRACE_MS = 5_000;

type Lowering = { readonly execPath: string; readonly args: readonly string[] } | null;

/** Niced through the `nice` command (coreutils on Linux, the base system on macOS), where it is found. */
function niced(): Lowering {
  if (process.platform === 'win32') return null;
  const nice = ['/usr/bin/nice', '/bin/nice'].find((candidate) => fs.existsSync(candidate));
  return nice ? { execPath: nice, args: ['-n', String(BACKGROUND_THREAD_NICENESS)] } : null;
}

/**
 * How the process starts below the serving thread: in Linux's `SCHED_IDLE` class through util-linux's
 * `chrt` (any user may lower a process to it; Debian's base system has chrt), else niced through the
 * `nice` command (macOS, or a Linux without chrt), else at the server's own priority (Windows: niced
 * by process id once started).
 */
function lowered(): Lowering {
  const chrt = process.platform === 'linux' ? ['/usr/bin/chrt', '/bin/chrt'].find((candidate) => fs.existsSync(candidate)) : undefined;
  return chrt ? { execPath: chrt, args: ['--idle', '0'] } : niced();
}

/** How processes start from now on: niced instead once the idle class was refused here (a container's seccomp rules, say). */
let lowering: Lowering = lowered();

/** Where a module beside this one is: the built .js, or the .ts source under tsx (tests, benchmarks). */
function moduleBeside(name: string): { path: string; nodeArgs: string[] } {
  const fromSource = import.meta.url.endsWith('.ts');
  return {
    path: fileURLToPath(new URL(`./${name}${fromSource ? '.ts' : '.js'}`, import.meta.url)),
    nodeArgs: fromSource ? ['--import', 'tsx'] : [],
  };
}

interface PendingTask {
  resolve(outcome: unknown): void;
  reject(error: Error): void;
  readonly timer: NodeJS.Timeout;
}

type ProcessMessage =
  | { readonly ready: true }
  | { readonly id: number; readonly ok: true; readonly outcome: unknown }
  | { readonly id: number; readonly ok: false; readonly message: string };

/** A process that ended before it said it was ready: it could not start as asked. */
class ExitedBeforeReady extends Error {}

function isProcessMessage(message: unknown): message is ProcessMessage {
  return typeof message === 'object' && message !== null && ('ready' in message || 'id' in message);
}

export class BackgroundProcess<Task, Outcome> {
  private child: Promise<ChildProcess> | null = null;
  /** The process of the promise in `child`, once forked (to tell whether an exit is of the current one). */
  private started: ChildProcess | null = null;
  private readonly pending = new Map<number, PendingTask>();
  private nextId = 1;
  private idleTimer: NodeJS.Timeout | null = null;
  /** Moved on by each close: a process that was still starting then is not taken when it is ready. */
  private generation = 0;

  /** `entry`: the task module beside this one, without its extension; `name`: the process as the log says it. */
  constructor(
    private readonly entry: string,
    private readonly name: string,
    private readonly log: { warn(details: object, message: string): void },
  ) {}

  private start(): Promise<ChildProcess> {
    if (this.child) return this.child;
    const starting: Promise<ChildProcess> = this.spawn(lowering)
      .catch((error: unknown) => {
        if (!(error instanceof ExitedBeforeReady) || lowering?.args[0] !== '--idle') throw error;
        this.log.warn({ err: error }, `${this.name} could not start in the idle scheduling class: it starts niced from now on`);
        lowering = niced();
        return this.spawn(lowering);
      })
      .catch((error: unknown) => {
        if (this.child === starting) this.child = null;
        throw error;
      });
    this.child = starting;
    return starting;
  }

  /** Forks the process, answered once it says it is ready; an exit before that is a failed start. */
  private spawn(how: Lowering): Promise<ChildProcess> {
    const generation = this.generation;
    return new Promise<ChildProcess>((resolve, reject) => {
      const entry = moduleBeside('background-process-entry');
      const taskModule = moduleBeside(this.entry);
      const child = fork(entry.path, [pathToFileURL(taskModule.path).href], {
        serialization: 'advanced',
        stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
        ...(how ? { execPath: how.execPath, execArgv: [...how.args, process.execPath, ...entry.nodeArgs] } : { execArgv: entry.nodeArgs }),
      });
      if (!how && child.pid !== undefined) {
        // Neither command: the niceness by process id (Windows maps it to a priority class).
        try {
          os.setPriority(child.pid, BACKGROUND_THREAD_NICENESS);
        } catch {
          // Refused (some platforms): it runs at the server's own priority.
        }
      }
      child.on('message', (message: unknown) => {
        if (!isProcessMessage(message)) return;
        if ('ready' in message) {
          if (generation !== this.generation) {
            child.disconnect();
            reject(new Error(`${this.name} was closed while it started`));
            return;
          }
          this.started = child;
          resolve(child);
          return;
        }
        const task = this.pending.get(message.id);
        if (!task) return;
        this.settled(message.id);
        if (message.ok) task.resolve(message.outcome);
        else task.reject(new Error(`${this.name} failed: ${message.message}`));
      });
      child.on('error', (error: Error) => {
        // Before it is ready (it could not be started at all): a failed start; after, only said.
        if (this.started !== child) reject(error);
        else this.log.warn({ err: error }, `${this.name} failed outside a task`);
      });
      child.once('exit', (code, signal) => {
        const how = signal ?? `exit code ${code}`;
        // Settles nothing once it was ready: then it is the tasks under way that fail.
        reject(new ExitedBeforeReady(`${this.name} ended before it was ready (${how})`));
        if (this.started !== child) return;
        const stopped = new Error(`${this.name} stopped (${how})`);
        this.started = null;
        this.child = null;
        for (const [id, task] of this.pending) {
          this.settled(id);
          task.reject(stopped);
        }
      });
    });
  }

  private settled(id: number): void {
    const task = this.pending.get(id);
    if (task) clearTimeout(task.timer);
    this.pending.delete(id);
    if (this.pending.size > 0 || !this.started) return;
    // Nothing in flight: the process does not keep the server alive, and ends a minute from now unless asked again.
    this.started.unref();
    this.started.channel?.unref();
    this.idleTimer = setTimeout(() => void this.close(), IDLE_MS);
    this.idleTimer.unref();
  }

  /** The running process's id, if one runs (tests look at it). */
  get processId(): number | undefined {
    return this.started?.pid;
  }

  /** Runs `task` in the process (started if none runs), after the tasks before it; the task and its outcome are copied across. */
  async run(task: Task): Promise<Outcome> {
    if (this.idleTimer) clearTimeout(this.idleTimer);
    this.idleTimer = null;
    const child = await this.start();
    child.ref();
    child.channel?.ref();
    const id = this.nextId++;
    return new Promise<Outcome>((resolve, reject) => {
      const timer = setTimeout(() => {
        this.settled(id);
        reject(new Error(`${this.name} took more than ${TASK_TIMEOUT_MS / 1000} s`));
        child.kill('SIGKILL');
      }, TASK_TIMEOUT_MS);
      this.pending.set(id, { resolve: (outcome) => resolve(outcome as Outcome), reject, timer });
      child.send({ id, task }, (error) => {
        if (!error || !this.pending.has(id)) return;
        this.settled(id);
        reject(error);
      });
    });
  }

  async close(): Promise<void> {
    if (this.idleTimer) clearTimeout(this.idleTimer);
    this.idleTimer = null;
    const starting = this.child;
    this.generation += 1;
    this.child = null;
    this.started = null;
    // Tasks still under way end with it; a task asked after this starts a new process.
    const closed = new Error(`${this.name} was closed`);
    for (const [id, task] of this.pending) {
      this.settled(id);
      task.reject(closed);
    }
    const child = await starting?.catch(() => null);
    if (!child || child.exitCode !== null || child.signalCode !== null) return;
    const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
    const killer = setTimeout(() => child.kill('SIGKILL'), CLOSE_GRACE_MS);
    if (child.connected) child.disconnect();
    else child.kill('SIGTERM');
    await exited;
    clearTimeout(killer);
  }
}
