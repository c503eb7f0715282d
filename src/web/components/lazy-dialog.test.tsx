import { render, screen } from '@testing-library/react';
import { Component, type ReactNode } from 'react';
import { describe, expect, it, vi } from 'vitest';
import { markFirstPaint } from '../first-paint.js';
import { dialogLoadsSettled, lazyDialog } from './lazy-dialog.js';

function Greeting({ show, name }: { readonly show: boolean; readonly name: string }) {
  return show ? <p>Hello {name}</p> : null;
}

/** Stands in for the page's own boundary: shows that the dialog failed instead of the page. */
class Boundary extends Component<{ readonly children: ReactNode }, { readonly failed: boolean }> {
  override state = { failed: false };
  static getDerivedStateFromError() {
    return { failed: true };
  }
  override render() {
    return this.state.failed ? <p>Dialog failed</p> : this.props.children;
  }
}

describe('lazyDialog', () => {
  it('does not start fetching for a page that has gone away before it was idle', async () => {
    const load = vi.fn(() => Promise.resolve(Greeting));
    const Dialog = lazyDialog(load);
    const { unmount } = render(<Dialog show={false} name="Ada" />);
    unmount();
    await new Promise((resolve) => setTimeout(resolve, 400));
    expect(load).not.toHaveBeenCalled();
  });

  it('fetches when idle after the view has painted, and opens without fetching again', async () => {
    const load = vi.fn(() => Promise.resolve(Greeting));
    const Dialog = lazyDialog(load);
    const { rerender } = render(<Dialog show={false} name="Ada" />);
    markFirstPaint();
    await vi.waitFor(() => expect(load).toHaveBeenCalledTimes(1));
    await dialogLoadsSettled();
    rerender(<Dialog show name="Ada" />);
    expect(await screen.findByText('Hello Ada')).toBeInTheDocument();
    expect(load).toHaveBeenCalledTimes(1);
  });

  it('opens on a later try after its code failed to load once', async () => {
    const load = vi.fn<() => Promise<typeof Greeting>>().mockRejectedValueOnce(new Error('offline')).mockResolvedValue(Greeting);
    // React logs the caught error; the boundary shows it instead.
    const consoleError = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const Dialog = lazyDialog(load);
    const first = render(
      <Boundary>
        <Dialog show name="Ada" />
      </Boundary>,
    );
    expect(await screen.findByText('Dialog failed')).toBeInTheDocument();
    first.unmount();

    render(
      <Boundary>
        <Dialog show name="Grace" />
      </Boundary>,
    );
    expect(await screen.findByText('Hello Grace')).toBeInTheDocument();
    expect(load).toHaveBeenCalledTimes(2);
    consoleError.mockRestore();
  });
});
