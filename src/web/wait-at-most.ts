/**
 * A wait for something that may take too long: the page's start waits so for the view's code and its
 * first answers (main.tsx), and Settings for the browser's zone to be kept.
 */

/** Settles once `awaited` has settled (either way) or `ms` have passed, whichever comes first; the timer goes with it. */
export function waitAtMost(awaited: Promise<unknown>, ms: number): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(resolve, ms);
    const done = () => {
      clearTimeout(timer);
      resolve();
    };
    awaited.then(done, done);
  });
}
