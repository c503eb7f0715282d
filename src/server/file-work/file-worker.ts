/** The worker thread's entry (piscina loads it): one file task in, its outcome out. */
import { type FileTask, runFileTask } from './file-tasks.js';

export default function fileWorker(task: FileTask): ReturnType<typeof runFileTask> {
  return runFileTask(task);
}
