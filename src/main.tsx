import { createRoot, hydrateRoot } from 'react-dom/client';
import { createApiClient } from './api/client';
import { AppProvider } from './app/AppProvider';
import { appInput, composeApp, sessionStartData } from './app/compose';
import { currentSearch } from './platform/location';
import { onOtherTabJwtRemoved } from './platform/otherTabs';
import { storage } from './platform/storage';
import { Shell } from './views/shell/Shell';
import './styles/tokens.css';

/**
 * Composition root: the browser parts (ky client, localStorage, navigator, location) are
 * provided to the machines here; the root actor itself is created by AppProvider inside React.
 * React.StrictMode is left out on purpose: its double effects stop and restart the root actor,
 * which would repeat the session bootstrap calls in development.
 */
const api = createApiClient({ getSessionToken: () => storage.get('sessionToken') });
const logic = composeApp({ api, storage, onOtherTabJwtRemoved });
const input = appInput(
  storage,
  sessionStartData({
    language: navigator.language,
    userAgent: navigator.userAgent,
    search: currentSearch(),
  }),
);

const app = (
  <AppProvider logic={logic} input={input}>
    <Shell />
  </AppProvider>
);

const container = document.getElementById('root');
if (!container) throw new Error('#root is missing from index.html');
if (container.hasChildNodes()) hydrateRoot(container, app);
else createRoot(container).render(app);
