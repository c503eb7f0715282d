/**
 * Dialogs are not part of the first view, so their code (forms, modal machinery, validation)
 * loads on demand: fetched when the browser is idle after the first paint, and mounted the first
 * time the dialog opens. Once mounted it stays, so closing still animates.
 */
import { type ComponentType, lazy, Suspense, useEffect, useState } from 'react';

const whenIdle = (task: () => void): void => {
  if (typeof window.requestIdleCallback === 'function') window.requestIdleCallback(task, { timeout: 2000 });
  else window.setTimeout(task, 200);
};

export function lazyDialog<Props extends object>(
  load: () => Promise<ComponentType<Props>>,
  isOpen: (props: Props) => boolean = (props) => 'show' in props && props.show === true,
): ComponentType<Props> {
  let loading: Promise<{ default: ComponentType<Props> }> | undefined;
  const preload = () =>
    (loading ??= load()
      .then((component) => ({ default: component }))
      .catch((error: unknown) => {
        // A failed fetch (offline, a new deployment) may succeed on the next try.
        loading = undefined;
        throw error;
      }));
  const Loaded = lazy(preload);

  function DeferredDialog(props: Props) {
    const open = isOpen(props);
    const [mounted, setMounted] = useState(open);
    if (open && !mounted) setMounted(true);
    // Preloading is only a head start: a failure here is retried when the dialog opens.
    useEffect(() => whenIdle(() => void preload().catch(() => undefined)), []);
    if (!mounted) return null;
    return (
      <Suspense fallback={null}>
        <Loaded {...props} />
      </Suspense>
    );
  }
  return DeferredDialog;
}
