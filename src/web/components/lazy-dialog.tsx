/**
 * Dialogs are not part of the first view, so their code (forms, modal machinery, validation)
 * loads on demand: fetched when the browser is idle after the view's first paint (never ahead of
 * its data, decision 0073), and mounted the first time the dialog opens. Once mounted it stays, so
 * closing still animates.
 */
import { type ComponentType, Suspense, useEffect, useState } from 'react';
import { type ChunkComponent, chunkComponent, useChunkComponent } from './chunk-component.js';
import { whenIdleAfterPaint } from '../first-paint.js';

/** Dialog code on its way now, for whoever must wait until no load is in flight (component tests). */
const inFlight = new Set<Promise<unknown>>();

/** Settles once every dialog load started so far has loaded or failed. */
export function dialogLoadsSettled(): Promise<void> {
  return Promise.allSettled([...inFlight]).then(() => undefined);
}

export function lazyDialog<Props extends object>(
  load: () => Promise<ComponentType<Props>>,
  isOpen: (props: Props) => boolean = (props) => 'show' in props && props.show === true,
): ComponentType<Props> {
  const chunk: ChunkComponent<Props> = chunkComponent(() => {
    const attempt = load().catch((error: unknown) => {
      // A failed fetch (offline, a new deployment) may succeed on the next try: the next opening
      // gets a new lazy component, which fetches again.
      chunk.retry();
      throw error;
    });
    const tracked = attempt.catch(() => undefined).finally(() => inFlight.delete(tracked));
    inFlight.add(tracked);
    return attempt;
  });
  const preload = () => chunk.load();

  function DeferredDialog(props: Props) {
    const open = isOpen(props);
    const [mounted, setMounted] = useState(open);
    if (open && !mounted) setMounted(true);
    // Preloading is only a head start: a failure here is retried when the dialog opens. A page
    // that has gone away does not start one.
    useEffect(() => whenIdleAfterPaint(() => void preload().catch(() => undefined), 2000), []);
    if (!mounted) return null;
    return <MountedDialog {...props} />;
  }

  /** Mounted at the first opening: the dialog's code itself if it is here by then (chunk-component.tsx). */
  function MountedDialog(props: Props) {
    const Chosen = useChunkComponent(chunk);
    return (
      <Suspense fallback={null}>
        <Chosen {...props} />
      </Suspense>
    );
  }
  return DeferredDialog;
}
