import { createContext, useEffect, type ReactNode } from 'react';
import type { ActorRefFrom } from 'xstate';
import { appMachine } from '../../machines/app/app.machine';
import { nextTask } from '../platform/nextTask';

export type AppActorRef = ActorRefFrom<typeof appMachine>;

/** The one root actor of the site, for the hooks in ./hooks.ts. */
export const AppActorContext = createContext<AppActorRef | null>(null);

/**
 * Provides the root actor, created outside React by ./appActor.ts (the one factory): the
 * composition root (main.tsx) creates it in a task of its own while React and the views still
 * download (src/app/mount.tsx), so creating every service and rendering the page are not one long
 * task; the pre-render and the tests mount the same provider with the actor they built. It starts in a task after the first commit
 * (the page hydrates against the snapshot the build rendered), unless main.tsx started it for a
 * page drawn fresh (starting a running actor does nothing), and stops when the tree unmounts.
 */
export function AppActorProvider({ actor, children }: { actor: AppActorRef; children: ReactNode }) {
  useEffect(() => {
    // In a task of its own, after the commit's other effects: starting every service is not
    // part of one long task with the first commit.
    let started = false;
    let cancelled = false;
    void nextTask().then(() => {
      if (cancelled) return;
      started = true;
      actor.start();
      // The page answers taps from here on (`npm run bench` reads this mark): a tap the page's
      // tap keeper (index.html) held before now is replayed, in this task.
      performance.mark('smw-hydrated');
      // Decoration below the first screen waits for this (the game's art, game-art.css).
      document.documentElement.dataset.app = 'ready';
      window.__smwTaps?.release();
    });
    return () => {
      cancelled = true;
      if (started) actor.stop();
      // Gone before it answered taps: the keeper lets taps through again, dropping a held one.
      else window.__smwTaps?.stop();
    };
  }, [actor]);
  return <AppActorContext.Provider value={actor}>{children}</AppActorContext.Provider>;
}
