/**
 * Settings (issue 26, decision 0048): the user's time zone, and what Leftover tells them and
 * where; the bank connections (issue 37). A dialog over the view the user is on, opened from the
 * top bar beside "Your data"; loaded the first time it opens. Each part saves on its own button
 * and says what happened.
 */
import { useCallback, useEffect, useLayoutEffect, useRef, useState } from 'react';
import { Alert, Modal } from 'react-bootstrap';
import type { NotificationSettings } from '../../../contract/notifications.js';
import { sendBrowserTimeZone, useSettingsApi } from '../../api/settings-calls.js';
import { useSignedInName } from '../../auth/sign-in-context.js';
import { Button } from '../../components/button.js';
import { ModalDialog } from '../../components/modal-dialog.js';
import { BankConnectionsSection } from './bank/bank-connections-section.js';
import { ChannelsSection } from './channels-section.js';
import { NotificationsSection } from './notifications-section.js';
import { waitAtMost } from '../../wait-at-most.js';
import { problemOf } from './settings-words.js';
import { SpendingSection } from './spending-section.js';
import { TimeZoneSection } from './time-zone-section.js';

interface SettingsDialogProps {
  readonly show: boolean;
  readonly onClose: () => void;
}

/** Mounted, closed, from just after the first paint: the browser's time zone goes to the server then. */
export function SettingsDialog({ show, onClose }: SettingsDialogProps) {
  const api = useSettingsApi();
  const who = useSignedInName();
  const zoneSent = useRef<Promise<void>>(Promise.resolve());
  // A layout effect, so the send has started before the body's first read (a passive effect of a
  // child, which would otherwise run first when Settings opens before the page has idled).
  useLayoutEffect(() => {
    zoneSent.current = sendBrowserTimeZone(api, who);
  }, [api, who]);
  const afterZoneSent = useCallback(() => zoneSent.current, []);
  return (
    <ModalDialog show={show} title="Settings" size="lg" onClose={onClose}>
      <Modal.Body>{show && <SettingsBody afterZoneSent={afterZoneSent} />}</Modal.Body>
      <Modal.Footer>
        <Button variant="outline-secondary" onClick={onClose}>
          Done
        </Button>
      </Modal.Footer>
    </ModalDialog>
  );
}

/** How long Settings' read waits for the browser's zone to be kept, at most. */
const ZONE_SEND_WAIT_MS = 3_000;

type Loaded = { readonly state: 'loading' } | { readonly state: 'failed'; readonly problem: string } | NotificationSettings;

/**
 * Read afresh each time Settings opens: another device may have added a channel or changed the hour.
 * Read once the browser's zone has been sent (it settles either way), so a Settings opened at once
 * after sign-in shows the zone the server has just kept, not the server's default.
 */
function SettingsBody({ afterZoneSent }: { readonly afterZoneSent: () => Promise<void> }) {
  const api = useSettingsApi();
  const [loaded, setLoaded] = useState<Loaded>({ state: 'loading' });

  const load = useCallback(() => {
    setLoaded({ state: 'loading' });
    // A send that hangs holds the read back a few seconds at most: the server's zone then shows.
    waitAtMost(afterZoneSent(), ZONE_SEND_WAIT_MS)
      .then(() => api.getNotifications())
      .then(setLoaded, (error: unknown) => setLoaded({ state: 'failed', problem: problemOf(error) }));
  }, [api, afterZoneSent]);
  useEffect(load, [load]);

  if ('state' in loaded) {
    if (loaded.state === 'loading') return <p className="text-body-secondary">Loading your settings…</p>;
    return (
      <Alert variant="danger" className="d-flex flex-wrap align-items-center gap-2">
        <span className="me-auto">{loaded.problem}</span>
        <Button variant="outline-danger" size="sm" onClick={load}>
          Retry
        </Button>
      </Alert>
    );
  }
  return (
    <>
      <TimeZoneSection timeZone={loaded.timeZone} onSaved={(timeZone) => setLoaded({ ...loaded, timeZone })} />
      <SpendingSection />
      <NotificationsSection settings={loaded} onSaved={setLoaded} />
      <ChannelsSection settings={loaded} onChange={setLoaded} />
      <BankConnectionsSection timeZone={loaded.timeZone} />
    </>
  );
}
