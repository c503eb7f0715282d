import { render, screen } from '@testing-library/react';
import { Suspense } from 'react';
import { describe, expect, it, vi } from 'vitest';
import { chunkComponent, useChunkComponent } from './chunk-component.js';

function Ready() {
  return <p>The view</p>;
}

function Place({ chunk }: { chunk: ReturnType<typeof chunkComponent<object>> }) {
  const Chosen = useChunkComponent(chunk);
  return (
    <Suspense fallback={<p>Loading</p>}>
      <Chosen />
    </Suspense>
  );
}

describe('a component in a chunk of its own', () => {
  it('whose module the document ran already (decision 0127) renders at once, and nothing is imported', async () => {
    const importChunk = vi.fn(() => Promise.resolve(Ready));
    const chunk = chunkComponent(importChunk, () => Ready);
    await expect(chunk.load()).resolves.toBe(Ready);
    expect(chunk.current()).toBe(Ready);
    render(<Place chunk={chunk} />);
    // Rendered in the first commit, without a fallback in between.
    expect(screen.getByText('The view')).toBeInTheDocument();
    expect(importChunk).not.toHaveBeenCalled();
  });

  it('is imported once otherwise, its place suspending until it is here', async () => {
    const importChunk = vi.fn(() => Promise.resolve(Ready));
    const chunk = chunkComponent(importChunk, () => undefined);
    render(<Place chunk={chunk} />);
    expect(screen.getByText('Loading')).toBeInTheDocument();
    expect(await screen.findByText('The view')).toBeInTheDocument();
    await chunk.load();
    expect(importChunk).toHaveBeenCalledOnce();
  });

  it('takes code that arrived after a first look as loaded from then on', async () => {
    const module: { evaluated?: typeof Ready } = {};
    const importChunk = vi.fn(() => Promise.resolve(Ready));
    const chunk = chunkComponent(importChunk, () => module.evaluated);
    expect(chunk.current()).not.toBe(Ready);
    module.evaluated = Ready;
    expect(chunk.current()).toBe(Ready);
    await expect(chunk.load()).resolves.toBe(Ready);
    expect(importChunk).not.toHaveBeenCalled();
  });
});
