import { createRoot, hydrateRoot } from 'react-dom/client';
import { createApiClient } from './api/client';
import { devInspect } from './devtools/inspector';
import { AppProvider } from './app/AppProvider';
import { MemberServices } from './app/MemberServices';
import { appInput, composeApp, sessionStartData } from './app/compose';
import { storeInviteCodeFromSearch } from './platform/inviteCode';
import { currentSearch } from './platform/location';
import { withRefreshLock } from './platform/locks';
import { onOtherTabJwtRemoved } from './platform/otherTabs';
import { storage } from './platform/storage';
import { Shell } from './views/shell/Shell';
import './styles/index.css';

/**
 * Composition root: the browser parts (ky client, localStorage, navigator, location) are
 * provided to the machines here; the root actor itself is created by AppProvider inside React.
 * React.StrictMode is left out on purpose: its double effects stop and restart the root actor,
 * which would repeat the session bootstrap calls in development.
 */
// The home page's ?i= invite code is stored before the services read storage (§2 Routes).
storeInviteCodeFromSearch(currentSearch(), storage);
const api = createApiClient({ getSessionToken: () => storage.get('sessionToken') });
const deps = { api, storage, onOtherTabJwtRemoved, withRefreshLock };
const logic = composeApp(deps);
const loadMembers = () => import('./app/members').then((m) => m.provideMembers(deps));
const input = appInput(
  storage,
  sessionStartData({
    language: navigator.language,
    userAgent: navigator.userAgent,
    search: currentSearch(),
  }),
);

const app = (
  <AppProvider
    logic={logic}
    input={input}
    inspect={import.meta.env.MODE !== 'production' ? devInspect : undefined}
  >
    <MemberServices load={loadMembers} />
    <Shell />
  </AppProvider>
);

const container = document.getElementById('root');
if (!container) throw new Error('#root is missing from index.html');
// Pre-rendered HTML is hydrated only on the route it was rendered for (the server answers other
// routes with the landing page's file); anything else renders fresh.
if (container.dataset.prerendered === window.location.pathname) hydrateRoot(container, app);
else createRoot(container).render(app);
