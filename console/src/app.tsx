import { useEffect, useState } from 'preact/hooks';
import { ErrorBoundary, lazy, LocationProvider, Route, Router, useLocation } from 'preact-iso';
import { onSignedOut } from './api/client';
import { SignIn } from './pages/sign-in';
import { forgetKey, storedKey } from './session';

// Each page is its own chunk, loaded when first opened: the first load carries only the shell.
const AssistantList = lazy(() => import('./pages/assistants/list'));
const NewAssistant = lazy(() => import('./pages/assistants/new'));
const AssistantPage = lazy(() => import('./pages/assistants/detail'));
const CallList = lazy(() => import('./pages/calls/list'));
const CallPage = lazy(() => import('./pages/calls/detail'));
const Bookings = lazy(() => import('./pages/bookings'));
const Messages = lazy(() => import('./pages/messages'));
const Knowledge = lazy(() => import('./pages/knowledge'));
const Tools = lazy(() => import('./pages/tools'));
const Workflows = lazy(() => import('./pages/workflows'));
const Numbers = lazy(() => import('./pages/numbers'));
const Usage = lazy(() => import('./pages/usage'));

/** The navigation, in the order a new user needs it. */
const NAV = [
  ['/assistants', 'Assistants'],
  ['/calls', 'Calls'],
  ['/bookings', 'Bookings'],
  ['/messages', 'Messages'],
  ['/knowledge', 'Knowledge'],
  ['/tools', 'Tools'],
  ['/workflows', 'Workflows'],
  ['/numbers', 'Phone numbers'],
  ['/usage', 'Usage'],
] as const;

function Nav(props: { onSignOut: () => void }) {
  const { path } = useLocation();
  return (
    <nav aria-label="Console">
      <ul>
        {NAV.map(([href, label]) => (
          <li key={href}>
            <a href={href} aria-current={path === href || path.startsWith(`${href}/`) ? 'page' : undefined}>
              {label}
            </a>
          </li>
        ))}
      </ul>
      <button type="button" class="link" onClick={props.onSignOut}>
        Sign out
      </button>
    </nav>
  );
}

function Home() {
  const { route } = useLocation();
  useEffect(() => route('/assistants', true), [route]);
  return null;
}

function NotFound() {
  return (
    <section class="page">
      <h1>Not found</h1>
      <p>
        No page here. <a href="/assistants">Go to the assistants</a>.
      </p>
    </section>
  );
}

/** The console: the sign-in page until an API key is accepted, then the pages. */
export function App() {
  const [signedIn, setSignedIn] = useState(storedKey() !== undefined);
  useEffect(() => onSignedOut(() => setSignedIn(false)), []);
  if (!signedIn) return <SignIn onSignedIn={() => setSignedIn(true)} />;
  const signOut = () => {
    forgetKey();
    setSignedIn(false);
  };
  return (
    <LocationProvider>
      <a class="skip" href="#main">
        Skip to content
      </a>
      <div class="shell">
        <header class="top">
          <span class="brand">Voice Agent</span>
          <Nav onSignOut={signOut} />
        </header>
        <main id="main" tabIndex={-1}>
          <ErrorBoundary>
            <Router>
              <Route path="/" component={Home} />
              <Route path="/assistants" component={AssistantList} />
              <Route path="/assistants/new" component={NewAssistant} />
              <Route path="/assistants/:id" component={AssistantPage} />
              <Route path="/calls" component={CallList} />
              <Route path="/calls/:id" component={CallPage} />
              <Route path="/bookings" component={Bookings} />
              <Route path="/messages" component={Messages} />
              <Route path="/knowledge" component={Knowledge} />
              <Route path="/knowledge/*" component={Knowledge} />
              <Route path="/tools" component={Tools} />
              <Route path="/tools/*" component={Tools} />
              <Route path="/workflows" component={Workflows} />
              <Route path="/workflows/*" component={Workflows} />
              <Route path="/numbers" component={Numbers} />
              <Route path="/usage" component={Usage} />
              <Route default component={NotFound} />
            </Router>
          </ErrorBoundary>
        </main>
      </div>
    </LocationProvider>
  );
}
