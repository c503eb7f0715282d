/**
 * The undo status (issue 24): what happened in words with "Undo" for at least 10 seconds, longer
 * while it has the pointer or the focus, in a live region; Undo hands the answer to the view.
 */
import { act, render, screen } from '@testing-library/react';
import { userEvent } from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ApiCallError, type UndoneAnswer } from '../api/api-client.js';
import { ApiClientProvider } from '../api/api-context.js';
import { depositsAnswer } from '../test-support/answers.js';
import { fakeApiClient, type FakeApiClient } from '../test-support/fake-api-client.js';
import { UndoProvider, useUndo, useUndone } from './undo-context.js';
import { UndoRegion } from './undo-region.js';
import { UNDO_SHOWN_MS } from './undo-status.js';

const DEPOSITS = depositsAnswer({ deposits: [], totalDeposits: 0 });

function Offering({ onUndone }: { onUndone: (answer: UndoneAnswer) => void }) {
  const { offerUndo } = useUndo();
  useUndone(onUndone);
  return (
    <button type="button" onClick={() => offerUndo('tok-1', 'Paid Rent.')}>
      Pay
    </button>
  );
}

function renderStatus(api: FakeApiClient, onUndone = vi.fn()) {
  render(
    <ApiClientProvider client={api}>
      <UndoProvider onUndoneWithoutView={vi.fn()}>
        <Offering onUndone={onUndone} />
        <UndoRegion />
      </UndoProvider>
    </ApiClientProvider>,
  );
  return { user: userEvent.setup({ advanceTimers: vi.advanceTimersByTime }), onUndone };
}

function undoRegion(): HTMLElement {
  const region = document.querySelector('.undo-region');
  if (!(region instanceof HTMLElement)) throw new Error('no undo region');
  return region;
}

/** The message box inside the region, under the pointer. */
function undoBox(): HTMLElement {
  const box = document.querySelector('.undo-status');
  if (!(box instanceof HTMLElement)) throw new Error('no undo status');
  return box;
}

beforeEach(() => {
  vi.useFakeTimers({ shouldAdvanceTime: true });
});
afterEach(() => {
  vi.useRealTimers();
});

describe('UndoStatus', () => {
  it('is a live region on the page before it speaks, then says what happened with an Undo button that undoes it', async () => {
    const api = fakeApiClient({ undo: vi.fn(async () => DEPOSITS) });
    const { user, onUndone } = renderStatus(api);
    expect(undoRegion()).toHaveAttribute('role', 'status');
    expect(undoRegion()).toBeEmptyDOMElement();

    await user.click(screen.getByRole('button', { name: 'Pay' }));
    expect(await screen.findByRole('button', { name: 'Undo' })).toBeVisible();
    expect(undoRegion()).toHaveTextContent('Paid Rent.');
    await user.click(screen.getByRole('button', { name: 'Undo' }));

    expect(api.undo).toHaveBeenCalledExactlyOnceWith('tok-1');
    expect(onUndone).toHaveBeenCalledExactlyOnceWith(DEPOSITS);
    expect(undoRegion()).toHaveTextContent('Undone: Paid Rent.');
    expect(screen.queryByRole('button', { name: 'Undo' })).toBeNull();
  });

  it('stays at least 10 seconds, and as long as the pointer or the keyboard focus is on it', async () => {
    const { user } = renderStatus(fakeApiClient());
    await user.click(screen.getByRole('button', { name: 'Pay' }));
    await screen.findByRole('button', { name: 'Undo' });

    act(() => vi.advanceTimersByTime(UNDO_SHOWN_MS - 100));
    expect(screen.getByRole('button', { name: 'Undo' })).toBeVisible();
    act(() => vi.advanceTimersByTime(200));
    expect(screen.queryByRole('button', { name: 'Undo' })).toBeNull();

    // Focused by keyboard, it waits for the user.
    await user.click(screen.getByRole('button', { name: 'Pay' }));
    await user.tab();
    expect(screen.getByRole('button', { name: 'Undo' })).toHaveFocus();
    act(() => vi.advanceTimersByTime(UNDO_SHOWN_MS * 3));
    expect(screen.getByRole('button', { name: 'Undo' })).toBeVisible();
    await user.tab();
    act(() => vi.advanceTimersByTime(UNDO_SHOWN_MS - 100));
    expect(screen.getByRole('button', { name: 'Undo' })).toBeVisible();
    act(() => vi.advanceTimersByTime(200));
    expect(screen.queryByRole('button', { name: 'Undo' })).toBeNull();

    // Under the pointer too.
    await user.click(screen.getByRole('button', { name: 'Pay' }));
    await user.hover(undoBox());
    act(() => vi.advanceTimersByTime(UNDO_SHOWN_MS * 3));
    expect(screen.getByRole('button', { name: 'Undo' })).toBeVisible();
    await user.unhover(undoBox());
    act(() => vi.advanceTimersByTime(UNDO_SHOWN_MS + 100));
    expect(screen.queryByRole('button', { name: 'Undo' })).toBeNull();
  });

  it('says why when it can no longer be undone, and changes nothing on the page', async () => {
    const refusal = new ApiCallError('undo', 409, 'This can no longer be undone: something changed since.');
    const api = fakeApiClient({ undo: vi.fn(async () => Promise.reject(refusal)) });
    const { user, onUndone } = renderStatus(api);
    await user.click(screen.getByRole('button', { name: 'Pay' }));
    await user.click(await screen.findByRole('button', { name: 'Undo' }));

    expect(undoRegion()).toHaveTextContent('This can no longer be undone: something changed since.');
    expect(onUndone).not.toHaveBeenCalled();
  });
});
