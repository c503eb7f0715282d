import { type ComponentType, type ReactNode, Suspense, useEffect, useState } from 'react';
import { Button } from './components/button.js';
import type { AppConfig } from '../contract/app-config.js';
import { SignedInApiProvider } from './api/api-context.js';
import { RequireSignIn } from './auth/require-sign-in.js';
import { SignInSession } from './auth/session.js';
import { CALLBACK_PATH } from './auth/sign-in-settings.js';
import { SignInProvider, useSignInSession, useSignInState } from './auth/sign-in-context.js';
import { BusyProvider } from './components/busy.js';
import { chunkComponent, useChunkComponent } from './components/chunk-component.js';
import { YourDataMenu } from './features/your-data/your-data-menu.js';
import { SettingsButton } from './features/settings/settings-button.js';
import { whenIdleAfterPaint } from './first-paint.js';
import { navigate, useBudgetInView, usePathname } from './navigation.js';
import { BudgetGone } from './features/budgets/budget-gone.js';
import { BudgetSwitcher } from './features/budgets/budget-switcher.js';
import { type BudgetList, useBudgets } from './features/budgets/use-budgets.js';
import { UndoProvider, useUndo } from './undo/undo-context.js';
import { UndoRegion } from './undo/undo-region.js';
import { HomeView } from './views/home-view.js';
import { LiveChangesProvider, LiveStatus } from './live/live-changes.js';
import { VIEW_PATHS, ViewNav } from './views/view-nav.js';
import { type ViewWithCode, viewCodeInHand } from './views/view-code-in-hand.js';

// Home is the first view's script (benchmark 4a). Ledger and Plan are chunks of their own: the one
// an address names starts loading with the page itself, beside the sign-in settings, so it is in
// hand when the user is; the others load when the browser is idle after the view's first paint.
const VIEW_CHUNKS = {
  ledger: chunkComponent(
    () => import('./views/ledger-view.js').then((module) => module.LedgerView),
    () => viewCodeInHand('ledger'),
  ),
  plan: chunkComponent(
    () => import('./views/plan-view.js').then((module) => module.PlanView),
    () => viewCodeInHand('plan'),
  ),
};

/** An invitation's link (issue 38): `/join#<token>`. Its page is a chunk of its own, loaded only there. */
const JOIN_PATH = '/join';
const JoinChunk = chunkComponent(() => import('./features/budgets/join-page.js').then((module) => module.JoinPage));

function JoinView() {
  const Chosen = useChunkComponent(JoinChunk);
  return (
    <Suspense fallback={null}>
      <Chosen onJoined={(budget) => navigate('/', { budget: budget.id })} />
    </Suspense>
  );
}

/** A view's chunk as a component: rendered directly once its code is here, as it is on its own address (chunk-component.tsx). */
function viewOf(name: keyof typeof VIEW_CHUNKS): ComponentType {
  return function ViewChunk() {
    const Chosen = useChunkComponent(VIEW_CHUNKS[name]);
    return (
      <Suspense fallback={null}>
        <Chosen />
      </Suspense>
    );
  };
}
const LedgerView = viewOf('ledger');
const PlanView = viewOf('plan');

function lazyViewAt(pathname: string): ViewWithCode | undefined {
  return pathname === VIEW_PATHS.ledger ? 'ledger' : pathname === VIEW_PATHS.plan ? 'plan' : undefined;
}

/** Whether the address names a lazy view whose code the document has run already (decision 0127). */
export function viewCodeInHandAt(pathname: string): boolean {
  const view = lazyViewAt(pathname);
  return view !== undefined && viewCodeInHand(view) !== undefined;
}

/** Starts loading the chunk of the view the address names, before sign-in settles (main.tsx calls it first); settles once it is here. */
export function preloadViewOf(pathname: string): Promise<void> {
  const view = lazyViewAt(pathname);
  const chunk = view === undefined ? undefined : VIEW_CHUNKS[view];
  // Settles either way: a chunk that failed to load says so where the view would be.
  return chunk
    ? chunk.load().then(
        () => undefined,
        () => undefined,
      )
    : Promise.resolve();
}

const VIEW_TITLES: Readonly<Record<string, string>> = {
  [VIEW_PATHS.home]: 'Home',
  [VIEW_PATHS.ledger]: 'Ledger',
  [VIEW_PATHS.plan]: 'Plan',
  [JOIN_PATH]: 'Invitation',
};

function TopBar({
  developmentSignIn,
  onDataReplaced,
  budgets,
}: {
  developmentSignIn: boolean;
  onDataReplaced: () => void;
  budgets: BudgetList;
}) {
  const session = useSignInSession();
  const who = useSignInState().user?.who;
  return (
    <header className="navbar bg-success" data-bs-theme="dark">
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
          <BudgetSwitcher list={budgets} />
          <YourDataMenu onDataReplaced={onDataReplaced} />
          <SettingsButton />
          <Button variant="light" size="sm" onClick={() => void session.signOut()}>
            Sign out
          </Button>
        </div>
      </div>
    </header>
  );
}

function NotFound() {
  return (
    <div>
      <h2>Page not found</h2>
      <p>
        There is nothing at this address. <a href="/">Go to your dashboard</a>.
      </p>
    </div>
  );
}

function View({ pathname }: { pathname: string }) {
  switch (pathname) {
    case VIEW_PATHS.home:
      return <HomeView />;
    case VIEW_PATHS.ledger:
      return <LedgerView />;
    case VIEW_PATHS.plan:
      return <PlanView />;
    case JOIN_PATH:
      return <JoinView />;
    default:
      return <NotFound />;
  }
}

/** The api client for the signed-in user in the budget in view, offering each write's undo token to the undo status. */
function SignedInApi({ budget, onBudgetGone, children }: { budget: string | undefined; onBudgetGone: () => void; children: ReactNode }) {
  const { offerUndo } = useUndo();
  return (
    <SignedInApiProvider budget={budget} onBudgetGone={onBudgetGone} onUndoable={offerUndo}>
      {/* Other members' changes, seen live (decision 0096). */}
      <LiveChangesProvider budget={budget} onGone={onBudgetGone}>
        {children}
      </LiveChangesProvider>
    </SignedInApiProvider>
  );
}

function SignedInPage({ developmentSignIn }: { developmentSignIn: boolean }) {
  const pathname = usePathname();
  const budget = useBudgetInView();
  const title = VIEW_TITLES[pathname];
  useEffect(() => {
    document.title = title ? `${title} · Leftover` : 'Leftover';
  }, [title]);
  // The other views' code, once this one has painted (decision 0073): never ahead of its data.
  useEffect(
    () =>
      whenIdleAfterPaint(() => {
        void VIEW_CHUNKS.ledger.load().catch(() => undefined);
        void VIEW_CHUNKS.plan.load().catch(() => undefined);
      }, 2000),
    [],
  );
  if (pathname === CALLBACK_PATH) return null;
  // Everything that holds a budget's data (views, their dialogs, the undo offer, the client) starts
  // afresh in another budget (decision 0092): nothing one budget answered is shown under another.
  return <BudgetPage key={budget ?? ''} budget={budget} pathname={pathname} developmentSignIn={developmentSignIn} />;
}

function BudgetPage({ budget, pathname, developmentSignIn }: { budget: string | undefined; pathname: string; developmentSignIn: boolean }) {
  // A restore or a deletion replaces everything, as an undo with no view to take it: the view loads afresh.
  const [dataGeneration, setDataGeneration] = useState(0);
  const reload = () => setDataGeneration((generation) => generation + 1);
  // A call for this budget answered that the user is no longer its member.
  const [gone, setGone] = useState(false);
  return (
    <BusyProvider>
      <UndoProvider onUndoneWithoutView={reload}>
        <SignedInApi budget={budget} onBudgetGone={() => setGone(true)}>
          <BudgetScreen budget={budget} developmentSignIn={developmentSignIn} onDataReplaced={reload}>
            {(name) =>
              gone ? (
                <BudgetGone name={name} onBack={() => navigate('/', { budget: null })} />
              ) : (
                <>
                  <LiveStatus />
                  <View key={`${pathname} ${dataGeneration}`} pathname={pathname} />
                </>
              )
            }
          </BudgetScreen>
          <UndoRegion />
        </SignedInApi>
      </UndoProvider>
    </BusyProvider>
  );
}

/** The header, the views' links and the view, with the caller's budgets read through the budget's client. */
function BudgetScreen({
  budget,
  developmentSignIn,
  onDataReplaced,
  children,
}: {
  budget: string | undefined;
  developmentSignIn: boolean;
  onDataReplaced: () => void;
  /** The view, or what replaces it; given the budget's name as the page knows it. */
  children: (name: string | undefined) => ReactNode;
}) {
  const pathname = usePathname();
  const budgets = useBudgets(budget);
  return (
    <>
      <TopBar developmentSignIn={developmentSignIn} onDataReplaced={onDataReplaced} budgets={budgets} />
      <ViewNav pathname={pathname} />
      <main>
        <div className="container-xl pb-5">{children(budgets.current?.name)}</div>
      </main>
    </>
  );
}

export function App({ config }: { config: AppConfig }) {
  // The user oidc-client-ts stored is read here, before the first render: a returning tab paints
  // its view and calls the API at once, and the library itself loads after (decision 0065).
  const [session] = useState(
    () => new SignInSession({ place: { authority: config.oidc.issuer, clientId: config.oidc.clientId, origin: window.location.origin } }),
  );
  return (
    <SignInProvider session={session}>
      <RequireSignIn>
        <SignedInPage developmentSignIn={config.developmentSignIn} />
      </RequireSignIn>
    </SignInProvider>
  );
}
