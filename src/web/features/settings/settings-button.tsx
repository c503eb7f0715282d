/**
 * "Settings" beside "Your data" (issue 26): only the button is in the first view (decision 0048).
 * Settings' code loads just after the first paint and stays mounted, closed: it sends the
 * browser's time zone, which the server keeps only for a user who has none, and opens at once.
 */
import { useState } from 'react';
import { Button } from '../../components/button.js';
import { lazyDialog } from '../../components/lazy-dialog.js';

const SettingsDialog = lazyDialog(
  () => import('./settings-dialog.js').then((module) => module.SettingsDialog),
  () => true,
);

export function SettingsButton() {
  const [open, setOpen] = useState(false);
  return (
    <>
      <Button variant="light" size="sm" onClick={() => setOpen(true)}>
        Settings
      </Button>
      <SettingsDialog show={open} onClose={() => setOpen(false)} />
    </>
  );
}
