import { useEffect } from 'react';
import type { MemberServices as Members } from '../../machines/app/app.types';
import { useAppActor } from './hooks';

/**
 * Hands the member services to the root actor once their chunk has loaded
 * (`app.membersLoaded`; the app machine spawns them once). Renders nothing.
 */
export function MemberServices({ load }: { load: () => Promise<Members> }) {
  const app = useAppActor();
  useEffect(() => {
    let live = true;
    load().then(
      (members) => {
        if (live) app.send({ type: 'app.membersLoaded', ...members });
      },
      (error: unknown) => console.error('[app] the member services could not load', error),
    );
    return () => {
      live = false;
    };
  }, [app, load]);
  return null;
}
