import { screen, waitFor } from '@testing-library/react';
import { expect } from 'vitest';

/** An open modal carries "show"; it loses it as soon as it starts closing, before it leaves the page. */
export function getOpenDialog(name: string): HTMLElement {
  const dialog = screen.getByRole('dialog', { name });
  expect(dialog).toHaveClass('show');
  return dialog;
}

export async function waitForDialogToClose(name: string): Promise<void> {
  await waitFor(() => expect(screen.queryByRole('dialog', { name })).not.toBeInTheDocument());
}
