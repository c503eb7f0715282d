/**
 * "Settings" beside "Your data" (issue 26): only the button is in the first view (decision 0048).
 * Settings' code loads when the browser is idle after the view's first paint (never ahead of the
 * view's data, decision 0073), or when the button is pressed, and stays mounted, closed: it sends
 * the browser's time zone, which the server keeps only for a user who has none, and opens at once.
 */
import { useEffect, useState } from 'react';
import { Button } from '../../components/button.js';
import { lazyDialog } from '../../components/lazy-dialog.js';
import { whenIdleAfterPaint } from '../../first-paint.js';

const SettingsDialog = lazyDialog(
  () => import('./settings-dialog.js').then((module) => module.SettingsDialog),
  () => true,
);

export function SettingsButton() {
  const [open, setOpen] = useState(false);
  const [painted, setPainted] = useState(false);
  useEffect(() => whenIdleAfterPaint(() => setPainted(true), 2000), []);
  return (
    <>
      <Button variant="light" size="sm" onClick={() => setOpen(true)}>
        Settings
      </Button>
      {painted || open ? <SettingsDialog show={open} onClose={() => setOpen(false)} /> : null}
    </>
  );
}
