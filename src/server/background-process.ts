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
 * TASK_TIMEOUT_MS ends the process, which rolls its transaction back and frees SQLite's lock; the
 * task fails once the process has exited, so nothing writes before the lock is free).
 *
 * Tasks wait in this process and go to the child one at a time, each timed from when it is sent:
 * a task that waits behind a slow one is never the one that ends it.
 *
 * The task module is the same a worker thread would run: a default export that takes a task and
 * answers its outcome. Tasks and outcomes cross as structured clones (`serialization: 'advanced'`).
 */
import { type ChildProcess, execFile, fork } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import { fileURLToPath } from 'node:url';
import { BACKGROUND_THREAD_NICENESS } from './background-priority.js';
import { entryBeside } from './background-thread.js';

/** Far beyond any task (benchmark 14's sync of 1,000 transactions takes well under a second). */
const TASK_TIMEOUT_MS = 120_000;
/** A server that needs the process only now and then frees it a minute after the last task. */
const IDLE_MS = 60_000;
/** How long a closing process may take to end after its channel is closed, before it is killed. */
const CLOSE_GRACE_MS = 5_000;

type Lowering = { readonly execPath: string; readonly args: readonly string[] } | null;

/** Where the two commands that lower a process may be, each the first of its list that exists. */
export interface LoweringCommands {
  readonly chrt: readonly string[];
  readonly nice: readonly string[];
}

/** The system's own: util-linux's `chrt` (Linux only) and coreutils' (or the base system's) `nice`. */
export const SYSTEM_COMMANDS: LoweringCommands = {
  chrt: process.platform === 'linux' ? ['/usr/bin/chrt', '/bin/chrt'] : [],
  nice: process.platform === 'win32' ? [] : ['/usr/bin/nice', '/bin/nice'],
};

/** Niced through the `nice` command, where it is found. */
function niced(commands: LoweringCommands): Lowering {
  const nice = commands.nice.find((candidate) => fs.existsSync(candidate));
  return nice ? { execPath: nice, args: ['-n', String(BACKGROUND_THREAD_NICENESS)] } : null;
}

/**
 * How the process starts below the serving thread: in Linux's `SCHED_IDLE` class through util-linux's
 * `chrt` (any user may lower a process to it; Debian's base system has chrt) when a trial run of
 * `chrt --idle 0 true` succeeds here (a container's seccomp rules may refuse it), else niced through
 * the `nice` command (macOS, or a Linux without chrt or whose chrt is refused), else at the server's
 * own priority (Windows: niced by process id once started).
 */
async function loweringFor(commands: LoweringCommands): Promise<Lowering> {
  const chrt = commands.chrt.find((candidate) => fs.existsSync(candidate));
  if (!chrt) return niced(commands);
  const accepted = await new Promise<boolean>((resolve) =>
    execFile(chrt, ['--idle', '0', 'true'], { timeout: 10_000 }, (error) => resolve(error === null)),
  );
  return accepted ? { execPath: chrt, args: ['--idle', '0'] } : niced(commands);
}

/** The system's way, found once, at the first start of any background process. */
let systemLowering: Promise<Lowering> | undefined;

/** Test seams of a background process. */
export interface BackgroundProcessOptions {
  /** A shorter bound on each task. */
  readonly taskTimeoutMs?: number;
  /** Other places for `chrt` and `nice` (one that refuses, none at all), looked for at each start of its process. */
  readonly commands?: LoweringCommands;
}

interface WaitingTask<Task> {
  readonly task: Task;
  resolve(outcome: unknown): void;
  reject(error: Error): void;
}

/** The task sent to the child: at most one at a time. */
interface SentTask<Task> extends WaitingTask<Task> {
  readonly id: number;
  /** Its process, once it is running; the task ends when the process answers or exits. */
  child: ChildProcess | null;
  timer: NodeJS.Timeout | null;
  timedOut: boolean;
}

type ProcessMessage =
  | { readonly ready: true }
  | { readonly id: number; readonly ok: true; readonly outcome: unknown }
  | { readonly id: number; readonly ok: false; readonly message: string };

function isProcessMessage(message: unknown): message is ProcessMessage {
  return typeof message === 'object' && message !== null && ('ready' in message || 'id' in message);
}

export class BackgroundProcess<Task, Outcome> {
  /** The process tasks go to, from its fork until it is ready; null when none runs or starts. */
  private child: Promise<ChildProcess> | null = null;
  /** That process once it said it is ready (to tell whether an exit is of the current one). */
  private started: ChildProcess | null = null;
  private readonly waiting: WaitingTask<Task>[] = [];
  private sent: SentTask<Task> | null = null;
  private nextId = 1;
  private idleTimer: NodeJS.Timeout | null = null;
  /** Moved on by each close: a process that was still starting then is not taken when it is ready. */
  private generation = 0;

  /** `entry`: the task module beside this one, without its extension; `name`: the process as the log says it. */
  constructor(
    private readonly entry: string,
    private readonly name: string,
    private readonly log: { warn(details: object, message: string): void },
    private readonly options: BackgroundProcessOptions = {},
  ) {}

  private get taskTimeoutMs(): number {
    return this.options.taskTimeoutMs ?? TASK_TIMEOUT_MS;
  }

  /** How its process is lowered: the system's way, found once for all, or the commands a test gave. */
  private lowering(): Promise<Lowering> {
    if (this.options.commands) return loweringFor(this.options.commands);
    systemLowering ??= loweringFor(SYSTEM_COMMANDS);
    return systemLowering;
  }

  /** The running process's id, if one runs (tests look at it). */
  get processId(): number | undefined {
    return this.started?.pid;
  }

  /**
   * Runs `task` in the process (started if none runs), after the tasks before it; the task and its
   * outcome are copied across.
   */
  run(task: Task): Promise<Outcome> {
    if (this.idleTimer) clearTimeout(this.idleTimer);
    this.idleTimer = null;
    return new Promise<Outcome>((resolve, reject) => {
      this.waiting.push({ task, resolve: (outcome) => resolve(outcome as Outcome), reject });
      this.sendNext();
    });
  }

  private start(): Promise<ChildProcess> {
    if (this.child) return this.child;
    const generation = this.generation;
    const starting: Promise<ChildProcess> = this.lowering()
      .then((how) => this.spawn(how, generation))
      .catch((error: unknown) => {
        if (this.child === starting) this.child = null;
        throw error;
      });
    this.child = starting;
    return starting;
  }

  /** Forks the process, answered once it says it is ready; an exit before that is a failed start. */
  private spawn(how: Lowering, generation: number): Promise<ChildProcess> {
    return new Promise<ChildProcess>((resolve, reject) => {
      if (generation !== this.generation) {
        reject(new Error(`${this.name} was closed while it started`));
        return;
      }
      const entry = entryBeside('background-process-entry');
      const nodeArgs = entry.execArgv ?? [];
      const child = fork(fileURLToPath(entry.filename), [entryBeside(this.entry).filename], {
        serialization: 'advanced',
        stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
        ...(how ? { execPath: how.execPath, execArgv: [...how.args, process.execPath, ...nodeArgs] } : { execArgv: nodeArgs }),
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
        if (message.ok) this.finish(message.id, { ok: true, outcome: message.outcome });
        else this.finish(message.id, { ok: false, error: new Error(`${this.name} failed: ${message.message}`) });
      });
      child.on('error', (error: Error) => {
        // Before it is ready (it could not be started at all): a failed start; after, only said.
        if (this.started !== child) reject(error);
        else this.log.warn({ err: error }, `${this.name} failed outside a task`);
      });
      child.once('exit', (code, signal) => {
        const how = signal ?? `exit code ${code}`;
        // Settles nothing once it was ready: then it is the task under way that fails.
        reject(new Error(`${this.name} ended before it was ready (${how})`));
        if (this.started === child) {
          this.started = null;
          this.child = null;
        }
        const sent = this.sent;
        if (sent?.child === child) {
          this.finish(
            sent.id,
            {
              ok: false,
              error: new Error(
                sent.timedOut ? `${this.name} took more than ${this.taskTimeoutMs / 1000} s` : `${this.name} stopped (${how})`,
              ),
            },
            true,
          );
        }
      });
    });
  }

  /** Sends the first waiting task when none is under way, starting the process if it must. */
  private sendNext(): void {
    if (this.sent !== null) return;
    const next = this.waiting.shift();
    if (!next) {
      this.whenIdle();
      return;
    }
    const sent: SentTask<Task> = { ...next, id: this.nextId++, child: null, timer: null, timedOut: false };
    this.sent = sent;
    this.start().then(
      (child) => {
        if (this.sent !== sent) return;
        sent.child = child;
        child.ref();
        child.channel?.ref();
        sent.timer = setTimeout(() => this.timeOut(sent), this.taskTimeoutMs);
        try {
          child.send({ id: sent.id, task: sent.task }, (error) => {
            if (error) this.finish(sent.id, { ok: false, error });
          });
        } catch (error) {
          // A task that cannot be copied (a function in it, say): it fails, the process goes on.
          this.finish(sent.id, { ok: false, error: error instanceof Error ? error : new Error(String(error)) });
        }
      },
      (error: unknown) => this.finish(sent.id, { ok: false, error: error instanceof Error ? error : new Error(String(error)) }),
    );
  }

  /**
   * A task past its time: its process is killed and no longer taken for new tasks; the task fails
   * when the process has exited (its transaction rolled back, SQLite's lock free), not before.
   */
  private timeOut(sent: SentTask<Task>): void {
    const child = sent.child;
    if (this.sent !== sent || !child) return;
    sent.timedOut = true;
    if (this.started === child) {
      this.started = null;
      this.child = null;
    }
    child.kill('SIGKILL');
  }

  /** `exited`: said by its process's exit, the only end a timed-out task may have (timeOut). */
  private finish(
    id: number,
    result: { readonly ok: true; readonly outcome: unknown } | { readonly ok: false; readonly error: Error },
    exited = false,
  ): void {
    const sent = this.sent;
    if (sent?.id !== id || (sent.timedOut && !exited)) return;
    if (sent.timer) clearTimeout(sent.timer);
    this.sent = null;
    if (result.ok) sent.resolve(result.outcome);
    else sent.reject(result.error);
    this.sendNext();
  }

  /** Nothing waits or runs: the process does not keep the server alive, and ends a minute from now unless asked again. */
  private whenIdle(): void {
    if (!this.started) return;
    this.started.unref();
    this.started.channel?.unref();
    if (this.idleTimer) clearTimeout(this.idleTimer);
    this.idleTimer = setTimeout(() => void this.close(), IDLE_MS);
    this.idleTimer.unref();
  }

  /** Ends the process; tasks waiting or under way fail. A task asked after this starts a new process. */
  async close(): Promise<void> {
    if (this.idleTimer) clearTimeout(this.idleTimer);
    this.idleTimer = null;
    const starting = this.child;
    this.generation += 1;
    this.child = null;
    this.started = null;
    const closed = new Error(`${this.name} was closed`);
    const sent = this.sent;
    this.sent = null;
    if (sent?.timer) clearTimeout(sent.timer);
    sent?.reject(closed);
    for (const waiting of this.waiting.splice(0)) waiting.reject(closed);
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
