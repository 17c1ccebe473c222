import { startTransition } from 'react';
import { createRoot, hydrateRoot } from 'react-dom/client';
import { preloadSignedInHome } from '../views/home/HomePage';
import { Shell } from '../views/shell/Shell';
import { AppActorProvider, type AppActorRef } from './AppProvider';

export type MountOptions = {
  /** The root actor, created by src/main.tsx (started already for a signed-in Home). */
  actor: AppActorRef;
  root: HTMLElement;
  /** Home for a stored jwt: drawn fresh over the pre-rendered landing page. */
  freshSignedInHome: boolean;
};

/**
 * The app's second stage: React and the views (this chunk and the libraries it imports, fetched
 * with the page while src/main.tsx readies the machines). Pre-rendered HTML is hydrated only on
 * the route it was rendered for (the server answers other routes with the landing page's file)
 * and only when it is what the page shows; anything else renders fresh.
 */
export async function mount({ actor, root, freshSignedInHome }: MountOptions): Promise<void> {
  const app = (
    <AppActorProvider actor={actor}>
      <Shell />
    </AppActorProvider>
  );
  // Hydration as a transition: React works in time slices and yields to the browser between
  // them (a tap on a part not yet hydrated hydrates that part at once), instead of one long task.
  if (root.dataset.prerendered === window.location.pathname && !freshSignedInHome) {
    startTransition(() => {
      hydrateRoot(root, app);
    });
    return;
  }
  // Markup the page replaces is never laid out: all but the loader goes before the head's mark
  // that kept it out of layout does (src/app/bootInline.ts), then React draws the page.
  for (const child of [...root.children]) {
    if (!child.classList.contains('loading-overlay')) child.remove();
  }
  delete document.documentElement.dataset.signedInHome;
  if (freshSignedInHome) {
    // The signed-in home's view (its files fetched with the page, the head's preloads) is run
    // first: the first commit draws it rather than its busy placeholder.
    await preloadSignedInHome();
    createRoot(root).render(app);
  } else {
    startTransition(() => {
      createRoot(root).render(app);
    });
  }
}
