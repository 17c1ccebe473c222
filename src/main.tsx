import { startTransition } from 'react';
import { createRoot, hydrateRoot } from 'react-dom/client';
import { devInspect } from './devtools/inspector';
import { createActor } from 'xstate';
import { AppActorProvider } from './app/AppProvider';
import { MemberServices } from './app/MemberServices';
import { appInput, composeApp } from './app/compose';
import { opensSignedInHome } from './app/signedInHome';
import { sessionStartData } from './app/startData';
import { api, earlySession } from './app/earlyApi';
import { storeInviteCodeFromSearch } from './platform/inviteCode';
import { currentSearch } from './platform/location';
import { withRefreshLock } from './platform/locks';
import { nextTask } from './platform/nextTask';
import { retryableImport } from './platform/retryableImport';
import { onOtherTabAuthChange } from './platform/otherTabs';
import { storage } from './platform/storage';
import { preloadSignedInHome } from './views/home/HomePage';
import { Shell } from './views/shell/Shell';
import './styles/index.css';

/**
 * Composition root: the browser parts (the ky client of ./app/earlyApi, localStorage, navigator,
 * location) are provided to the machines here, and the root actor is created here (started by AppActorProvider
 * after the first commit). React.StrictMode is left out on purpose: its double effects would stop
 * the root actor, which cannot start again.
 */
// The home page's ?i= invite code is stored before the services read storage (§2 Routes).
storeInviteCodeFromSearch(currentSearch(), storage);
const deps = { api, storage, onOtherTabAuthChange, withRefreshLock, early: earlySession };
// The member services' chunk is fetched after the first render has committed.
const membersChunk = retryableImport(() => import('./app/members'));
const loadMembers = () =>
  nextTask()
    .then(membersChunk)
    .then((m) => m.provideMembers(deps));
const input = appInput(
  storage,
  sessionStartData({
    language: navigator.language,
    userAgent: navigator.userAgent,
    search: currentSearch(),
  }),
);

/**
 * A signed-in Home is drawn fresh over the pre-rendered landing page; its view is asked for with
 * the app's first task (its files left with the page).
 */
const freshSignedInHome = opensSignedInHome(storage, window.location.pathname);
if (freshSignedInHome) preloadSignedInHome();

const container = document.getElementById('root');
if (!container) throw new Error('#root is missing from index.html');

/**
 * Start-up in short tasks instead of one long one: evaluating the code (this module), providing
 * the machines' implementations, creating the root actor with all its services, then the first
 * render. Pre-rendered HTML is hydrated only on the route it was rendered for (the server answers
 * other routes with the landing page's file) and only when it is what the page shows; anything
 * else renders fresh.
 */
async function boot(root: HTMLElement): Promise<void> {
  await nextTask();
  const logic = composeApp(deps);
  await nextTask();
  const actor = createActor(logic, {
    input,
    ...(import.meta.env.MODE !== 'production' ? { inspect: devInspect } : {}),
  });
  await nextTask();
  const app = (
    <AppActorProvider actor={actor}>
      <MemberServices load={loadMembers} />
      <Shell />
    </AppActorProvider>
  );
  // Hydration as a transition: React works in time slices and yields to the browser between
  // them (a tap on a part not yet hydrated hydrates that part at once), instead of one long task.
  if (root.dataset.prerendered === window.location.pathname && !freshSignedInHome) {
    startTransition(() => {
      hydrateRoot(root, app);
    });
  } else {
    // Markup the page replaces is never laid out: all but the loader goes before the head's mark
    // that kept it out of layout does (src/app/bootInline.ts), then React draws the page.
    for (const child of [...root.children]) {
      if (!child.classList.contains('loading-overlay')) child.remove();
    }
    delete document.documentElement.dataset.signedInHome;
    if (freshSignedInHome) {
      // Nothing pre-rendered to match: the actor starts now (AppActorProvider leaves a started
      // actor be), so the session's answers the head already has are taken before the first
      // render, and the first commit is the signed-in home rather than its busy placeholder.
      actor.start();
      await nextTask();
      createRoot(root).render(app);
    } else {
      startTransition(() => {
        createRoot(root).render(app);
      });
    }
  }
  // The site's own faces, for the next page this browser loads (src/platform/webFonts.ts, a
  // chunk of its own: not part of the landing page's initial JS).
  await nextTask();
  void import('./platform/webFonts').then(
    (fonts) => fonts.fetchWebFontsForNextVisit(),
    () => false,
  );
}
void boot(container);
