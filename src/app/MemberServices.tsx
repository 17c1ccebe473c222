import { useEffect } from 'react';
import type { MemberServices as Members } from '../../machines/app/app.types';
import { chunkFailed } from '../platform/chunkRetry';
import { useAppActor } from './hooks';

/**
 * Hands the member services to the root actor once their chunk has loaded
 * (`app.membersLoaded`; the app machine spawns them once). Renders nothing; a chunk that cannot
 * load is reported to the page's retry notice.
 */
export function MemberServices({ load }: { load: () => Promise<Members> }) {
  const app = useAppActor();
  useEffect(() => {
    let live = true;
    const attempt = () =>
      load().then(
        (members) => {
          if (live) app.send({ type: 'app.membersLoaded', ...members });
        },
        (error: unknown) => {
          console.error('[app] the member services could not load', error);
          // The page's retry notice says so; its Retry asks for the chunk again.
          if (live) chunkFailed('member services', () => void attempt());
        },
      );
    void attempt();
    return () => {
      live = false;
    };
  }, [app, load]);
  return null;
}
