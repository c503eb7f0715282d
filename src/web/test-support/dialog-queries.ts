import { screen, waitFor } from '@testing-library/react';
import { expect } from 'vitest';

/**
 * An open modal carries "show"; it loses it as soon as it starts closing, before it leaves the
 * page. Dialogs load on demand, so the first opening may take a moment.
 */
export async function findOpenDialog(name: string): Promise<HTMLElement> {
  const dialog = await screen.findByRole('dialog', { name });
  expect(dialog).toHaveClass('show');
  return dialog;
}

export async function waitForDialogToClose(name: string): Promise<void> {
  await waitFor(() => expect(screen.queryByRole('dialog', { name })).not.toBeInTheDocument());
}
