/**
 * A component whose code is in a chunk of its own. React's lazy component suspends on its first
 * render even when its chunk has already arrived, and React then shows what suspended no sooner
 * than 300 ms after the fallback it committed (its reveal throttle): a first view, a dialog's first
 * opening or a chart waited about 200 ms with nothing to do (benchmark 12). Here, a place first
 * rendered once the code is here renders it directly. Each place keeps what it first rendered for
 * its life (useChunkComponent): a mounted lazy component replaced by the loaded one would be a new
 * component to React, mounted again with everything typed into it lost (and a resolved lazy
 * component no longer suspends).
 */
import { type ComponentType, lazy, type LazyExoticComponent, useState } from 'react';

export interface ChunkComponent<Props extends object> {
  /** Starts loading the chunk (once; again after a failure) and settles when it has loaded. */
  readonly load: () => Promise<ComponentType<Props>>;
  /** The component a place mounted now renders: the loaded one, else a lazy one that suspends until it is. */
  readonly current: () => ComponentType<Props> | LazyExoticComponent<ComponentType<Props>>;
  /** After a failed load: a lazy component remembers its failure, so the next render gets another. */
  readonly retry: () => void;
}

/**
 * `inHand`: the component when its chunk's module has been evaluated already without this import
 * (a view the document ran, decision 0127); it is taken as loaded, and nothing is imported.
 */
export function chunkComponent<Props extends object>(
  importChunk: () => Promise<ComponentType<Props>>,
  inHand: () => ComponentType<Props> | undefined = () => undefined,
): ChunkComponent<Props> {
  let loaded: ComponentType<Props> | undefined;
  let loading: Promise<ComponentType<Props>> | undefined;
  const load = (): Promise<ComponentType<Props>> => {
    loaded ??= inHand();
    if (loaded !== undefined) return Promise.resolve(loaded);
    return (loading ??= importChunk().then(
      (component) => {
        loaded = component;
        return component;
      },
      (error: unknown) => {
        // The next load fetches again.
        loading = undefined;
        throw error;
      },
    ));
  };
  const newLazy = () => lazy(() => load().then((component) => ({ default: component })));
  let deferred = newLazy();
  return {
    load,
    current: () => (loaded ??= inHand()) ?? deferred,
    retry: () => {
      if (loaded === undefined) deferred = newLazy();
    },
  };
}

/** What this place renders for its life: chosen when it mounts (a retry mounts it afresh, with a new key). */
export function useChunkComponent<Props extends object>(
  chunk: ChunkComponent<Props>,
): ComponentType<Props> | LazyExoticComponent<ComponentType<Props>> {
  const [chosen] = useState(chunk.current);
  return chosen;
}
