import { useState } from 'react';
import { Button } from './components/button.js';
import { AuthProvider, useAuth } from 'react-oidc-context';
import type { AppConfig } from '../contract/app-config.js';
import { SignedInApiProvider } from './api/api-context.js';
import { RequireSignIn } from './auth/require-sign-in.js';
import { CALLBACK_PATH, signInSettings } from './auth/sign-in-settings.js';
import { BusyProvider } from './components/busy.js';
import { Dashboard } from './dashboard.js';
import { YourDataMenu } from './features/account/your-data-menu.js';
import { usePathname } from './navigation.js';

function TopBar({ developmentSignIn, onDataReplaced }: { developmentSignIn: boolean; onDataReplaced: () => void }) {
  const auth = useAuth();
  const profile = auth.user?.profile;
  const who = profile?.preferred_username ?? profile?.name ?? profile?.sub;
  return (
    <header className="navbar bg-success mb-3" data-bs-theme="dark">
      <div className="container-xl">
        <h1 className="navbar-brand mb-0 fs-3">Leftover</h1>
        {/* On a narrow screen the items wrap and a long name ends in an ellipsis (the whole name in
            its title); "Sign out" always stays on the screen. */}
        <div className="top-bar__account d-flex flex-wrap align-items-center gap-2 column-gap-3 text-white">
          {developmentSignIn ? <span className="badge text-bg-warning">Development sign-in</span> : null}
          {who ? (
            <span className="top-bar__who" title={who}>
              Signed in as {who}
            </span>
          ) : null}
          <YourDataMenu onDataReplaced={onDataReplaced} />
          <Button variant="light" size="sm" onClick={() => void auth.signoutRedirect()}>
            Sign out
          </Button>
        </div>
      </div>
    </header>
  );
}

function NotFound() {
  return (
    <div className="container-xl">
      <h2>Page not found</h2>
      <p>
        There is nothing at this address. <a href="/">Go to your dashboard</a>.
      </p>
    </div>
  );
}

function SignedInPage({ developmentSignIn }: { developmentSignIn: boolean }) {
  const pathname = usePathname();
  // A restore or a deletion replaces everything: a new dashboard loads every section afresh.
  const [dataGeneration, setDataGeneration] = useState(0);
  if (pathname === CALLBACK_PATH) return null;
  return (
    <BusyProvider>
      <SignedInApiProvider>
        <TopBar developmentSignIn={developmentSignIn} onDataReplaced={() => setDataGeneration((generation) => generation + 1)} />
        {pathname === '/' ? (
          <main>
            <div className="container-xl pb-5">
              <Dashboard key={dataGeneration} />
            </div>
          </main>
        ) : (
          <main>
            <NotFound />
          </main>
        )}
      </SignedInApiProvider>
    </BusyProvider>
  );
}

export function App({ config }: { config: AppConfig }) {
  return (
    <AuthProvider {...signInSettings(config, window.location.origin)}>
      <RequireSignIn>
        <SignedInPage developmentSignIn={config.developmentSignIn} />
      </RequireSignIn>
    </AuthProvider>
  );
}
