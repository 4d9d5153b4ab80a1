import { render } from 'preact';
import { useEffect, useRef } from 'preact/hooks';
import { signal } from '@preact/signals';
import { goToSignIn } from './api/client.js';
import { ToastRegion } from './components/Toast.js';
import { loadSession, me, signOut } from './data/session.js';
import { enrolmentRequired } from './data/two-factor.js';
import { currentPath, followLink, navigate } from './lib/router.js';
import { lazyPage } from './pages/manage/lazy.js';
import { MANAGE_PAGES, ManageLinks } from './pages/manage/nav.js';
import { ProfilePage } from './pages/Profile.js';
import { LANDING, SignInPage } from './pages/SignIn.js';
import { TimesheetPage } from './pages/Timesheet.js';
import { TrackPage } from './pages/Track.js';
import { EnrolFirstPage } from './pages/TwoFactor.js';
import './styles.css';

const PAGES: Record<string, { title: string; page: () => preact.JSX.Element }> = {
  '/': { title: 'Track', page: TrackPage },
  '/dashboard': { title: 'Dashboard', page: lazyPage(() => import('./pages/dashboard/DashboardPage.js').then((m) => m.DashboardPage)) },
  '/timesheet': { title: 'Timesheet', page: TimesheetPage },
  '/profile': { title: 'Profile', page: ProfilePage },
  ...MANAGE_PAGES,
};

const state = signal<'loading' | 'ready'>('loading');

/** Pages that need no session: signing in and the links mail brings. */
const isPublic = (path: string) => path === '/sign-in' || path.startsWith('/sign-in/') || path.startsWith('/auth/');

async function start(): Promise<void> {
  if (!isPublic(location.pathname) && !(await loadSession())) {
    goToSignIn();
    return;
  }
  // Where sign-in lands without a page to return to: administrators' dashboard, everyone else's Track (docs/web-app.md).
  if (location.pathname === LANDING) navigate(me.value?.role === 'Administrator' ? '/dashboard' : '/', { replace: true });
  state.value = 'ready';
}

/** On a phone the navigation is behind a menu button (docs/web-app.md, "Layout"). */
const menuOpen = signal(false);

function Nav() {
  const menuButton = useRef<HTMLButtonElement>(null);
  const follow = (event: MouseEvent) => {
    menuOpen.value = false;
    followLink(event);
  };
  const link = (href: string, label: string) => (
    <a href={href} onClick={follow} aria-current={currentPath.value === href ? 'page' : undefined}>
      {label}
    </a>
  );
  const toggle = () => {
    menuOpen.value = !menuOpen.value;
    // Opened, the focus goes to the first link; the links follow the button in the tab order.
    if (menuOpen.value) requestAnimationFrame(() => document.querySelector<HTMLElement>('#main-nav a')?.focus());
  };
  const closeOnEscape = (event: KeyboardEvent) => {
    if (event.key !== 'Escape' || !menuOpen.value) return;
    menuOpen.value = false;
    menuButton.current?.focus();
  };
  return (
    <header class={menuOpen.value ? 'top menu-open' : 'top'} onKeyDown={closeOnEscape}>
      <a class="skip" href="#main">
        Skip to content
      </a>
      <span class="brand">timetrack</span>
      <button type="button" class="menu-button" ref={menuButton} aria-expanded={menuOpen.value} aria-controls="main-nav" onClick={toggle}>
        Menu
      </button>
      <nav aria-label="Main" id="main-nav">
        {link('/dashboard', 'Dashboard')}
        {link('/', 'Track')}
        {link('/timesheet', 'Timesheet')}
        <ManageLinks link={link} />
        {link('/profile', 'Profile')}
      </nav>
      <button type="button" class="link" onClick={() => void signOut()}>
        Sign out
      </button>
    </header>
  );
}

function App() {
  const path = currentPath.value;
  useEffect(() => {
    if (state.value === 'ready' && !isPublic(path) && !PAGES[path]) navigate('/', { replace: true });
    const entry = PAGES[path];
    if (entry && path !== '/') document.title = `${entry.title} · timetrack`;
    document.getElementById('main')?.focus();
  }, [path, state.value]);
  if (isPublic(path)) {
    return (
      <main id="main" tabIndex={-1}>
        <SignInPage />
      </main>
    );
  }
  if (state.value === 'loading' || !me.value) return <p class="loading">Loading…</p>;
  if (enrolmentRequired.value) return <EnrolFirstPage />;
  const Page = (PAGES[path] ?? PAGES['/']).page;
  return (
    <>
      <Nav />
      <main id="main" tabIndex={-1}>
        <Page />
      </main>
      <ToastRegion />
    </>
  );
}

render(<App />, document.getElementById('app')!);
void start();
