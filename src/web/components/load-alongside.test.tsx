import { render, screen } from '@testing-library/react';
import { userEvent } from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { loadAlongside } from './load-alongside.js';

function Greeting({ name }: { readonly name: string }) {
  return <p>Hello {name}</p>;
}

describe('loadAlongside', () => {
  it("starts loading with the page on its view's address, and renders directly once the code is here", async () => {
    const load = vi.fn(() => Promise.resolve(Greeting));
    const View = loadAlongside(load, null, window.location.pathname);
    expect(load).toHaveBeenCalledTimes(1);
    render(<View name="Ada" />);
    expect(await screen.findByText('Hello Ada')).toBeInTheDocument();

    render(<View name="Grace" />);
    // Already loaded: no suspending, the text is there in the same render.
    expect(screen.getByText('Hello Grace')).toBeInTheDocument();
    expect(load).toHaveBeenCalledTimes(1);
  });

  it('elsewhere, starts loading when first rendered', async () => {
    const load = vi.fn(() => Promise.resolve(Greeting));
    const View = loadAlongside(load, null, '/another-view');
    render(<View name="Ada" />);
    expect(await screen.findByText('Hello Ada')).toBeInTheDocument();
    expect(load).toHaveBeenCalledTimes(1);
  });

  it('says when the code could not load, and Try again fetches it again', async () => {
    const user = userEvent.setup();
    const load = vi.fn<() => Promise<typeof Greeting>>().mockRejectedValueOnce(new Error('offline')).mockResolvedValue(Greeting);
    // React logs the caught error; the page shows the notice instead.
    const consoleError = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const View = loadAlongside(load);
    render(<View name="Ada" />);

    expect(await screen.findByText(/could not be loaded/)).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Try again' }));
    expect(await screen.findByText('Hello Ada')).toBeInTheDocument();
    expect(load).toHaveBeenCalledTimes(2);
    consoleError.mockRestore();
  });
});
