/**
 * The page's sign-in settings (`/app-config.json`) as this browser last had them. A returning tab
 * renders with them at once, beside the view's first calls, instead of waiting for the server to
 * answer that request too: it came last of the Ledger view's answers, queued behind them (benchmark
 * 12). The request still goes; if its answer differs (the operator changed the provider), the note
 * is replaced and the page starts again with the new settings. Kept in the tab's session storage,
 * as the token is: a new tab signs in anyway, and local storage holds nothing of Leftover's.
 */
import { type AppConfig, appConfigSchema } from '../contract/app-config.js';

const NOTE_KEY = 'leftover.appConfig';

/** The remembered settings, if any are stored and still valid. */
export function rememberedAppConfig(storage: () => Storage = () => window.sessionStorage): AppConfig | undefined {
  try {
    const parsed = appConfigSchema.safeParse(JSON.parse(storage().getItem(NOTE_KEY) ?? 'null'));
    return parsed.success ? parsed.data : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Keeps the server's settings; answers whether they replaced different ones. Where storage refuses
 * them, the note goes, so the next start waits for the server, and this one is not restarted (it
 * would find the same note again).
 */
export function rememberAppConfig(config: AppConfig, storage: () => Storage = () => window.sessionStorage): boolean {
  const note = JSON.stringify(config);
  try {
    if (storage().getItem(NOTE_KEY) === note) return false;
    storage().setItem(NOTE_KEY, note);
    return true;
  } catch {
    try {
      storage().removeItem(NOTE_KEY);
    } catch {
      // Storage is not there at all: nothing was remembered either.
    }
    return false;
  }
}
