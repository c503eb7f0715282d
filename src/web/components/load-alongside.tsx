/**
 * A view that can only show once data has arrived (the ledger's rows) need not be in the first
 * view's script: its code starts loading when the view first renders, while the data it waits for
 * (asked for by the first script, decision 0073) is on its way, and is usually there first. A part
 * of a view that is not on screen at start (another view's, the undo status) loads when the browser
 * is idle after the first paint instead, never ahead of the view's own data. Until it is here, the
 * view suspends; if it cannot load (offline, a new deployment), the place says so and offers to try
 * again, the rest of the page unharmed.
 */
import { Component, type ComponentType, type ReactNode, Suspense } from 'react';
import { chunkComponent, useChunkComponent } from './chunk-component.js';
import { whenIdleAfterPaint } from '../first-paint.js';
import { Button } from './button.js';

/** How to start every load made so far, for whoever must have all the page's code here (component tests). */
const starters: (() => Promise<unknown>)[] = [];

/** Starts every view's code not started yet and settles once all have loaded (or failed to). */
export function everyViewLoaded(): Promise<void> {
  return Promise.allSettled(starters.map((start) => start().catch(() => undefined))).then(() => undefined);
}

/** A chunk not rendered by the first view still comes, when the browser is idle after its paint. */
const IDLE_AT_MOST_MS = 5_000;

export function loadAlongside<Props extends object>(
  load: () => Promise<ComponentType<Props>>,
  /** What holds the view's place while its code is still on the way. */
  fallback: ReactNode = null,
  /** The address of the view that shows it from the start: on that address it starts loading with the page. */
  viewPath?: string,
): ComponentType<Props> {
  const chunk = chunkComponent(load);
  const start = () => chunk.load();
  starters.push(start);
  // With the page on its view's address; rendered first, then (lazy below); otherwise after the first
  // paint. A failure here is retried on render.
  if (viewPath !== undefined && window.location.pathname === viewPath) void start().catch(() => undefined);
  else whenIdleAfterPaint(() => void start().catch(() => undefined), IDLE_AT_MOST_MS);

  function ChunkPlace(props: Props) {
    const Chosen = useChunkComponent(chunk);
    return (
      <Suspense fallback={fallback}>
        <Chosen {...props} />
      </Suspense>
    );
  }

  function LoadedAlongside(props: Props) {
    return <LoadFailure onRetry={chunk.retry} view={() => <ChunkPlace {...props} />} />;
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
