import {
  ErrorModalOverlay,
  GlobalErrorHandler,
  InformationBannerOverlay,
  ToastOverlay,
  VideoModalOverlay,
} from '../overlays/connected';
import { ConnectionStatusOverlay } from '../realtime/ConnectionStatusOverlay';
import { useSelector } from '@xstate/react';
import { ChunkRetryNotice } from '../common/ChunkRetryNotice';
import { loadedView } from '../common/loadedView';
import { PartUnavailable } from '../common/PartUnavailable';
import { selectHasJwt } from '../../../machines/auth/auth.selectors';
import { SYSTEM_IDS } from '../../../machines/systemIds';
import { useService } from '../../app/hooks';
import { retryableImport } from '../../platform/retryableImport';

// The sign-in dialog is its own chunk, loaded when it first opens: it is not in the landing
// page's initial JS (performance budget), and the chart decides when it is shown. When it cannot
// load, the page's retry notice says so (Get Access never does nothing on screen).
const SignInModal = loadedView(
  retryableImport(
    () => import('../signIn/SignInModal'),
    (m) => m.SignInModal,
  ),
  'sign-in dialog',
);

/** Sign-in modal slot: only while signed out (the shell checks only the jwt, §4) and open. */
function SignInModalSlot() {
  const hasJwt = useSelector(useService(SYSTEM_IDS.auth), selectHasJwt);
  // Read here without the selectors module, which belongs to the dialog's chunk.
  const signIn = useService(SYSTEM_IDS.signIn);
  const open = useSelector(signIn, (s) => s.matches('open'));
  if (hasJwt || !open) return null;
  return (
    <SignInModal
      fallback={null}
      unavailable={
        <PartUnavailable
          variant="dialog"
          title="The sign-in could not open"
          onClose={() => signIn.send({ type: 'signIn.close' })}
        />
      }
    />
  );
}

/**
 * The global overlays of §2 Shell, in one place. Each overlay's component is imported and
 * rendered here by the engineer who builds it (one import and one line each):
 *   - error modal            (errorModal service)
 *   - information banner     (notifications service)
 *   - notification toast     (notifications service)
 *   - sign-in modal          only when not authenticated; the shell checks only the jwt (§4):
 *                            `const hasJwt = useSelector(useService(SYSTEM_IDS.auth), selectHasJwt)`
 *                            then `{hasJwt ? null : <SignInModal />}`
 *   - video modal
 */
export function Overlays() {
  return (
    <>
      {/* overlays render here, in the order listed above */}
      <GlobalErrorHandler />
      <ErrorModalOverlay />
      <InformationBannerOverlay />
      <ToastOverlay />
      <SignInModalSlot />
      <VideoModalOverlay />
      <ConnectionStatusOverlay />
      <ChunkRetryNotice />
    </>
  );
}
