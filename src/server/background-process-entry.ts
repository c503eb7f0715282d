/**
 * The entry of a background process (background-process.ts, decision 0115): it loads the task module
 * named by its first argument (a module whose default export takes a task and answers its outcome, the
 * same module a worker thread would run) and answers the tasks the server sends over the IPC channel
 * (one at a time: the server waits for each answer before it sends the next). It ends when the server
 * closes the channel.
 */
type RunTask = (task: unknown) => Promise<unknown>;

interface TaskMessage {
  readonly id: number;
  readonly task: unknown;
}

function isTaskMessage(message: unknown): message is TaskMessage {
  return typeof message === 'object' && message !== null && 'id' in message && typeof message.id === 'number' && 'task' in message;
}

const moduleUrl = process.argv[2];
if (!moduleUrl || !process.send) throw new Error('a background process needs its task module and an IPC channel');
const send = process.send.bind(process);
const { default: runTask } = (await import(moduleUrl)) as { default: RunTask };

process.on('message', async (message: unknown) => {
  if (!isTaskMessage(message)) return;
  try {
    send({ id: message.id, ok: true, outcome: await runTask(message.task) });
  } catch (error) {
    // The task modules answer their own refusals as outcomes: this is a fault in the module itself.
    send({ id: message.id, ok: false, message: error instanceof Error ? error.message : String(error) });
  }
});
process.on('disconnect', () => process.exit(0));
send({ ready: true });
