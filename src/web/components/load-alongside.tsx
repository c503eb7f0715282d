/**
 * A view that can only show once data has arrived (the ledger's rows) need not be in the first
 * view's script: its code starts loading when the page starts, alongside the data's own request,
 * and is usually there first. Until it is, the view suspends; if it cannot load (offline, a new
 * deployment), the place says so and offers to try again, the rest of the page unharmed.
 */
import { Component, type ComponentType, lazy, type ReactNode, Suspense } from 'react';
import { Button } from './button.js';

/** Every load started so far, for whoever must wait until all the page's code is here (component tests). */
const started: Promise<unknown>[] = [];

/** Settles once every view loaded alongside its data so far has loaded (or failed to). */
export function everyViewLoaded(): Promise<void> {
  return Promise.allSettled(started).then(() => undefined);
}

export function loadAlongside<Props extends object>(
  load: () => Promise<ComponentType<Props>>,
  /** What holds the view's place while its code is still on the way. */
  fallback: ReactNode = null,
): ComponentType<Props> {
  let loaded: ComponentType<Props> | null = null;
  let loading: Promise<{ default: ComponentType<Props> }> | undefined;
  const start = () =>
    (loading ??= load().then(
      (component) => {
        loaded = component;
        return { default: component };
      },
      (error: unknown) => {
        // The next try fetches again.
        loading = undefined;
        throw error;
      },
    ));
  // Started now, with the page, not at the first render; a failure here is retried on render.
  started.push(start().catch(() => undefined));
  let Deferred = lazy(start);

  function LoadedAlongside(props: Props) {
    // Once the code is here, render it directly: no suspending on later mounts.
    const Loaded = loaded;
    if (Loaded !== null) return <Loaded {...props} />;
    return (
      <LoadFailure
        onRetry={() => {
          // A lazy component remembers its failure: a new one tries the import again.
          Deferred = lazy(start);
        }}
        // Made at render time, so a retry renders the new lazy component.
        view={() => (
          <Suspense fallback={fallback}>
            <Deferred {...props} />
          </Suspense>
        )}
      />
    );
  }
  return LoadedAlongside;
}

interface LoadFailureProps {
  readonly onRetry: () => void;
  readonly view: () => ReactNode;
}

class LoadFailure extends Component<LoadFailureProps, { readonly failed: boolean }> {
  override state = { failed: false };

  static getDerivedStateFromError(): { failed: boolean } {
    return { failed: true };
  }

  override render(): ReactNode {
    if (!this.state.failed) return this.props.view();
    return (
      <div className="alert alert-warning d-flex flex-wrap align-items-center gap-2">
        <p className="mb-0">This part of the page could not be loaded. Check your connection and try again.</p>
        <Button
          variant="outline-secondary"
          onClick={() => {
            this.props.onRetry();
            this.setState({ failed: false });
          }}
        >
          Try again
        </Button>
      </div>
    );
  }
}
