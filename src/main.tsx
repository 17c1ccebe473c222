import { devInspect } from './devtools/inspector';
import { createAppActor } from './app/appActor';
import { appInput } from './app/compose';
import { opensSignedInHome } from './app/signedInHome';
import { sessionStartData } from './app/startData';
import { api } from './app/earlyApi';
import { defaultBaseUrl } from './api/baseUrl';
import { inviteCodeOfPath, inviteCodeOfPathSegment, offerSearchCode } from './platform/inviteCode';
import { currentSearch } from './platform/location';
import { withRefreshLock } from './platform/locks';
import { nextTask } from './platform/nextTask';
import { onOtherTabAuthChange } from './platform/otherTabs';
import { storage } from './platform/storage';
import './styles/index.css';

/**
 * Composition root, in two stages. This module (the machines, their browser parts and xstate)
 * readies the root actor while React and the views still download; ./app/mount.tsx (one file with
 * React, src/prerender/appChunk.ts, fetched with the page) then draws or hydrates the page. The
 * browser parts (the ky client of ./app/earlyApi, localStorage, navigator, location) are provided
 * to the machines here.
 * React.StrictMode is left out on purpose: its double effects would stop the root actor, which
 * cannot start again.
 */
// The home page's ?i= invite code is checked like a link's before it is kept (§2 Routes).
offerSearchCode(currentSearch());
// An invite link a static host served: the API (on another origin) never saw the page's request,
// so the click is told to it (docs/operations.md, "The site on a static host").
const linkCode = inviteCodeOfPath(window.location.pathname);
if (linkCode && new URL(defaultBaseUrl(), window.location.href).origin !== window.location.origin)
  api.call('inviteClick', { data: { code: inviteCodeOfPathSegment(linkCode) } }).catch(() => {});
const deps = {
  api,
  storage,
  onOtherTabAuthChange,
  withRefreshLock,
  // Pre-rendered pages sent the session's first calls from their head (src/app/bootInline.ts).
  ...(window.__smwBoot ? { head: window.__smwBoot } : {}),
};
// React and the views: asked for now, run once they have arrived (their files left with the page).
const stageTwo = import('./app/mount');
const input = appInput(
  storage,
  sessionStartData({
    language: navigator.language,
    userAgent: navigator.userAgent,
    search: currentSearch(),
  }),
);

/** A signed-in Home is drawn fresh over the pre-rendered landing page (./app/mount.tsx). */
const freshSignedInHome = opensSignedInHome(storage, window.location.pathname);

const container = document.getElementById('root');
if (!container) throw new Error('#root is missing from index.html');

/**
 * Start-up in short tasks instead of one long one: evaluating the code (this module), providing
 * the machines' implementations, creating the root actor with all its services, then the first
 * render once React has arrived.
 */
async function boot(root: HTMLElement): Promise<void> {
  await nextTask();
  // The member services' chunk is asked for by the app machine once it starts (after the first
  // render has committed), in tasks of their own.
  const actor = await createAppActor({
    deps,
    input,
    between: nextTask,
    ...(import.meta.env.MODE !== 'production' ? { inspect: devInspect } : {}),
  });
  // Creating the actor (every service with it) and what follows are two tasks.
  await nextTask();
  if (freshSignedInHome) {
    // Nothing pre-rendered to match: the actor starts now (AppActorProvider leaves a started
    // actor be) and takes the session's answers the head already has while React downloads, so
    // the first commit is the signed-in home rather than its busy placeholder.
    actor.start();
    await nextTask();
  }
  const { mount } = await stageTwo;
  await mount({ actor, root, freshSignedInHome });
  // The site's own faces, for the next page this browser loads (src/platform/webFonts.ts, a
  // chunk of its own: not part of the landing page's initial JS).
  await nextTask();
  void import('./platform/webFonts').then(
    (fonts) => fonts.fetchWebFontsForNextVisit(),
    () => false,
  );
}
// The machine visualiser (development and local builds only) runs no app of its own: the site's
// actors it shows are those of the site open in other tabs (src/devtools/standalone.tsx).
if (import.meta.env.MODE !== 'production' && /^\/__machines\/?$/.test(window.location.pathname)) {
  void import('./devtools/standalone').then((visualiser) => visualiser.mountVisualiser(container));
} else {
  void boot(container);
}
