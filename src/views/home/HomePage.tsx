import { useSelector } from '@xstate/react';
import { Suspense, useEffect, useRef } from 'react';
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

const HOME_HEADING = 'main h1';

/**
 * Focus follows the flow: when a sign-in on this page (not a session restored at load) replaces
 * the landing, the dialog's Get Access button is gone and focus would drop to the body; the
 * signed-in home's heading takes it as soon as it has rendered (its chunk may still be loading).
 */
function useFocusHomeAfterSignIn(signedIn: boolean) {
  const wasSignedIn = useRef(signedIn);
  useEffect(() => {
    const arrived = signedIn && !wasSignedIn.current;
    wasSignedIn.current = signedIn;
    if (!arrived) return;
    const focusHeading = () => {
      const heading = document.querySelector<HTMLElement>(HOME_HEADING);
      if (!heading) return false;
      const active = document.activeElement;
      if (!active || active === document.body) {
        heading.tabIndex = -1;
        heading.focus();
      }
      return true;
    };
    if (focusHeading()) return;
    const watcher = new MutationObserver(() => {
      if (focusHeading()) watcher.disconnect();
    });
    watcher.observe(document.body, { childList: true, subtree: true });
    return () => watcher.disconnect();
  }, [signedIn]);
}

/** Home (§2): the landing page for visitors, the tabs for signed-in users. */
export function HomePage() {
  const auth = useService(SYSTEM_IDS.auth);
  const signedIn = useSelector(auth, selectIsSignedIn);
  useFocusHomeAfterSignIn(signedIn);
  if (!signedIn) return <Landing />;
  return (
    <Suspense fallback={<main className="route-loading" aria-busy="true" />}>
      <SignedInHome />
    </Suspense>
  );
}
