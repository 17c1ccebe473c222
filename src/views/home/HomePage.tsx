import { useSelector } from '@xstate/react';
import { selectHasJwt, selectIsSignedIn } from '../../../machines/auth/auth.selectors';
import { SYSTEM_IDS } from '../../../machines/systemIds';
import { useService } from '../../app/hooks';
import { loadedView } from '../common/loadedView';
import { PartUnavailable } from '../common/PartUnavailable';
import { Landing } from './Landing';
import { retryableImport } from '../../platform/retryableImport';

/** The signed-in home (tabs, payment, invite) is its own chunk: visitors never download it. */
// When it cannot load, the page's retry notice says so and its Retry asks again.
const SignedInHome = loadedView(
  retryableImport(
    () => import('./SignedInHome'),
    (m) => m.SignedInHome,
  ),
  'signed-in home',
);
/** The signed-in home's chunk, asked for by a page that will draw it fresh (src/app/mount.tsx). */
export const preloadSignedInHome = SignedInHome.preload;
const loading = <main className="route-loading" aria-busy="true" />;

/**
 * Home (§2): the landing page for visitors, the tabs for signed-in users. With a jwt whose user
 * data has not arrived yet (a signed-in visitor's page load, or the moment after signing in) the
 * page waits in a busy placeholder instead of showing the landing page for an instant.
 */
export function HomePage() {
  const auth = useService(SYSTEM_IDS.auth);
  const signedIn = useSelector(auth, selectIsSignedIn);
  const hasJwt = useSelector(auth, selectHasJwt);
  if (!signedIn) return hasJwt ? loading : <Landing />;
  return (
    <SignedInHome
      fallback={loading}
      unavailable={<PartUnavailable variant="page" title="This page could not load" />}
    />
  );
}
