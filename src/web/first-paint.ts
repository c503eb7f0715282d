/**
 * Nothing before the first paint that the view does not show (issue 35, decision 0073): the code of
 * other views, dialogs, menus and the sign-in library waits until the view on screen has painted its
 * first answers, then loads when the browser is idle. A view says it has painted (`markFirstPaint`)
 * once its first data is shown or has failed (Home with a forecast: once its chart is drawn, decision
 * 0111); should none ever say so (an address with no view, a sign-in error), the wait ends by itself
 * after a few seconds.
 */

/** However the first view fares, what waits for its paint starts after this long. */
const PAINT_AT_MOST_MS = 5_000;

let painted = false;
const waiting = new Set<() => void>();
let fallback: ReturnType<typeof setTimeout> | undefined;

function release(): void {
  if (painted) return;
  painted = true;
  if (fallback !== undefined) clearTimeout(fallback);
  const tasks = [...waiting];
  waiting.clear();
  for (const task of tasks) task();
}

/**
 * The view has shown its first answers (or its failure): what waits for the paint starts once the
 * frame that shows them has been produced (the first task after the next animation frame).
 */
export function markFirstPaint(): void {
  if (painted) return;
  afterNextFrame(release);
}

/**
 * Runs the task in the first task after the next animation frame (the frame that shows what was
 * just committed has then been produced); answers how to call it off.
 */
export function afterNextFrame(task: () => void): () => void {
  let timer: ReturnType<typeof setTimeout> | undefined;
  if (typeof requestAnimationFrame !== 'function') {
    timer = setTimeout(task, 0);
    return () => clearTimeout(timer);
  }
  const frame = requestAnimationFrame(() => {
    timer = setTimeout(task, 0);
  });
  return () => {
    cancelAnimationFrame(frame);
    if (timer !== undefined) clearTimeout(timer);
  };
}

/** Starts the fallback: main.tsx calls it when the page starts. */
export function limitFirstPaintWait(ms = PAINT_AT_MOST_MS): void {
  if (painted || fallback !== undefined) return;
  fallback = setTimeout(release, ms);
}

/** Runs the task once the first view has painted (at once if it has); answers how to call it off. */
export function afterFirstPaint(task: () => void): () => void {
  if (painted) {
    task();
    return () => undefined;
  }
  const once = () => task();
  waiting.add(once);
  return () => waiting.delete(once);
}

/**
 * After the first paint, when the browser is idle (at most `timeoutMs` later); answers how to call
 * it off, whichever stage it is in.
 */
export function whenIdleAfterPaint(task: () => void, timeoutMs: number): () => void {
  let cancelIdle: (() => void) | undefined;
  const cancelWait = afterFirstPaint(() => {
    if (typeof window.requestIdleCallback === 'function') {
      const handle = window.requestIdleCallback(() => task(), { timeout: timeoutMs });
      cancelIdle = () => window.cancelIdleCallback(handle);
    } else {
      const handle = window.setTimeout(task, 1);
      cancelIdle = () => window.clearTimeout(handle);
    }
  });
  return () => {
    cancelWait();
    cancelIdle?.();
  };
}
