import { useSelector } from '@xstate/react';
import { selectIsSignedIn } from '../../../machines/auth/auth.selectors';
import { SYSTEM_IDS } from '../../../machines/systemIds';
import { useService } from '../../app/hooks';
import { Landing } from './Landing';
import { SignedInHome } from './SignedInHome';

/** Home (§2): the landing page for visitors, the tabs for signed-in users. */
export function HomePage() {
  const auth = useService(SYSTEM_IDS.auth);
  const signedIn = useSelector(auth, selectIsSignedIn);
  return signedIn ? <SignedInHome /> : <Landing />;
}
