import { render, screen } from '@testing-library/react';
import { userEvent } from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { ErrorModal } from './error-modal.js';
import { SpinnerOverlay } from './busy.js';

describe('Whoops! modal', () => {
  it('shows the catalogue message and the server message with ABORT and RETRY', async () => {
    const onAbort = vi.fn();
    const onRetry = vi.fn();
    render(
      <ErrorModal
        report={{ messages: ['Failed to get ledger!'], details: ['The server could not be reached.'] }}
        onAbort={onAbort}
        onRetry={onRetry}
      />,
    );
    const dialog = await screen.findByRole('dialog', { name: 'Whoops!' });
    expect(dialog).toHaveTextContent('Failed to get ledger!');
    expect(dialog).toHaveTextContent('The server could not be reached.');
    await userEvent.click(screen.getByRole('button', { name: 'RETRY' }));
    expect(onRetry).toHaveBeenCalledOnce();
    await userEvent.click(screen.getByRole('button', { name: 'ABORT' }));
    expect(onAbort).toHaveBeenCalledOnce();
    await userEvent.click(screen.getByRole('button', { name: 'Close' }));
    expect(onAbort).toHaveBeenCalledTimes(2);
  });

  it('offline says so instead of the failed calls, and retries by itself when the browser is back online', async () => {
    const onRetry = vi.fn();
    render(
      <ErrorModal
        report={{ messages: ['Failed to get ledger!'], details: ['The server could not be reached.'], offline: true }}
        onAbort={vi.fn()}
        onRetry={onRetry}
      />,
    );
    const dialog = await screen.findByRole('dialog', { name: 'Whoops!' });
    expect(dialog).toHaveTextContent('You are offline. Leftover will load your data again when you are back online.');
    expect(dialog).not.toHaveTextContent('Failed to get ledger!');
    window.dispatchEvent(new Event('online'));
    expect(onRetry).toHaveBeenCalledOnce();
  });

  it('is hidden without a report', () => {
    render(<ErrorModal report={null} onAbort={vi.fn()} onRetry={vi.fn()} />);
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
  });
});

describe('spinner overlay', () => {
  it('announces loading while a request runs', () => {
    const { rerender } = render(<SpinnerOverlay visible />);
    expect(screen.getByRole('status')).toHaveTextContent('Loading…');
    rerender(<SpinnerOverlay visible={false} />);
    expect(screen.getByRole('status')).toHaveTextContent('');
  });
});
