/**
 * A view's first paint, marked once React has committed what the view shows (decisions 0073, 0112).
 * Called beside the setState that shows the first answers, `markFirstPaint` could take a frame drawn
 * before that commit (the loading state) for the paint, and what waits for it (other views' code,
 * the sign-in settings, the schedules' names) would start ahead of the view's own rows.
 */
import { useEffect } from 'react';
import { markFirstPaint } from './first-paint.js';

/** Marks the first paint after the render in which `shown` (the first answers, or their failure, are on screen) became true. */
export function useFirstPaintOnceShown(shown: boolean): void {
  useEffect(() => {
    if (shown) markFirstPaint();
  }, [shown]);
}
