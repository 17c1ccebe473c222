import { useSelector } from '@xstate/react';
import { Suspense } from 'react';
import { selectIsSignedIn } from '../../../machines/auth/auth.selectors';
import { SYSTEM_IDS } from '../../../machines/systemIds';
import { useService } from '../../app/hooks';
import { ChunkFailed } from '../common/ChunkFailed';
import { lazyView } from '../common/lazyView';
import { Landing } from './Landing';

/** The signed-in home (tabs, payment, invite) is its own chunk: visitors never download it. */
const SignedInHome = lazyView(
  () => import('./SignedInHome').then((m) => m.SignedInHome),
  ChunkFailed,
  'signed-in home',
);

/** Home (§2): the landing page for visitors, the tabs for signed-in users. */
export function HomePage() {
  const auth = useService(SYSTEM_IDS.auth);
  const signedIn = useSelector(auth, selectIsSignedIn);
  if (!signedIn) return <Landing />;
  return (
    <Suspense fallback={<main className="route-loading" aria-busy="true" />}>
      <SignedInHome />
    </Suspense>
  );
}
