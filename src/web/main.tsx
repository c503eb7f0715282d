// First: the view's data is asked for before the rest of the page's code is evaluated (decision 0109).
import './first-reads-now.js';
import './styles/bootstrap.scss';
import './styles.css';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { APP_CONFIG_PATH, type AppConfig, appConfigSchema } from '../contract/app-config.js';
import { rememberAppConfig, rememberedAppConfig } from './app-config-note.js';
import { App, preloadViewOf, viewCodeInHandAt } from './app.js';
import { afterFirstPaint, limitFirstPaintWait, whenIdleAfterPaint } from './first-paint.js';
import { preloadSignIn } from './auth/session.js';
import { earlyCallsAnswered } from './api/early-calls.js';
import { waitAtMost } from './wait-at-most.js';

/** How long the first render waits for the view's first answers at most, once its code is in. */
const FIRST_ANSWERS_WAIT_MS = 300;
/** How long the first render waits for the view's code at most. */
const VIEW_CODE_WAIT_MS = 1_000;
/** After the first paint, the service worker is registered when the browser is idle, or after this long. */
const SERVICE_WORKER_IDLE_WAIT_MS = 2_000;

/**
 * The start's steps on the page's performance timeline (a few microseconds each): with the requests'
 * times, where a first view's time went, in the browser's tools or benchmark 12's BENCH_TRACE=1.
 */
function markStep(step: 'start' | 'view-code' | 'answers' | 'render', detail?: object): void {
  performance.mark(`leftover:${step}`, { detail });
}

async function start(): Promise<void> {
  // On the Ledger's and Plan's addresses the document runs the view's own chunk beside this one
  // (decision 0127): its modules are evaluated after this module, in the same task, before any
  // promise settles. One turn of the microtask queue, and the view's code is in hand here.
  await Promise.resolve();
  markStep('start');
  // The view's data is on its way (first-reads-now.ts); now its code, then the sign-in library if needed now.
  const codeInHand = viewCodeInHandAt(window.location.pathname);
  const viewCode = preloadViewOf(window.location.pathname);
  preloadSignIn();
  limitFirstPaintWait();
  const root = createRoot(document.getElementById('root') as HTMLElement);
  const askServer = () =>
    fetch(APP_CONFIG_PATH)
      .then((response) => response.json())
      .then((body) => appConfigSchema.parse(body));
  const remembered = rememberedAppConfig();
  // Without remembered settings the first render needs the server's: asked at once, beside the view's code.
  const fromServer = remembered === undefined ? askServer() : undefined;
  // The first render waits for the view's code, which comes from the page's cache in a moment: a view
  // rendered before it would suspend, and React would then hold it back up to 300 ms (decision 0090).
  // A network that holds the code back gets the page's frame after a while, the view following.
  await waitAtMost(viewCode, VIEW_CODE_WAIT_MS);
  markStep('view-code', { inHandAtStart: codeInHand });
  // The browser loads the site's local storage on its first use, a few milliseconds on the main
  // thread; a view reading a preference in its first render (the expenses' order) would wait for it
  // there. Now, while the answers are on their way, it costs nothing (decision 0109).
  try {
    void window.localStorage.length;
  } catch {
    // Storage blocked by the browser's settings: the preferences fall back as they always do.
  }
  // Then for the view's first answers, a little: a view that finds them in hand paints once, with
  // them (decision 0109); a slow server gets the page's frame and the view's loading state instead.
  await waitAtMost(earlyCallsAnswered(), FIRST_ANSWERS_WAIT_MS);
  markStep('answers');
  if (remembered !== undefined) {
    markStep('render');
    root.render(<Page config={remembered} />);
    // Settings the operator changed since: kept, and the page starts again with them. Asked once the
    // view has painted: before it, the request would only compete with the view's own (benchmark 12).
    afterFirstPaint(() => {
      askServer().then(
        (config) => {
          if (rememberAppConfig(config)) window.location.reload();
        },
        () => undefined,
      );
    });
    return;
  }
  try {
    const config = await (fromServer ?? askServer());
    rememberAppConfig(config);
    markStep('render');
    root.render(<Page config={config} />);
  } catch {
    // Offline (decision 0026) it says so, and starts again by itself when the network is back.
    const offline = !navigator.onLine;
    if (offline) window.addEventListener('online', () => window.location.reload());
    root.render(
      <main className="container py-5">
        <h1>Leftover could not start</h1>
        <p>
          {offline
            ? 'You are offline. Leftover will start when you are back online.'
            : 'The server did not answer with its sign-in settings. Reload the page to try again.'}
        </p>
      </main>,
    );
  }
}

function Page({ config }: { config: AppConfig }) {
  return (
    <StrictMode>
      <App config={config} />
    </StrictMode>
  );
}

void start();

// The service worker (decision 0026) keeps the page's own files for the next start. It is
// registered once the first view has painted, when the browser is idle: the page's load event
// often fires while the view's first answers are still on their way, and registering then took
// the main thread from them (1.5 ms a load in a profile of benchmark 12's Ledger, up to 10).
if ('serviceWorker' in navigator) {
  whenIdleAfterPaint(() => void navigator.serviceWorker.register('/sw.js').catch(() => undefined), SERVICE_WORKER_IDLE_WAIT_MS);
}
