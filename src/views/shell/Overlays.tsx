import {
  ErrorModalOverlay,
  GlobalErrorHandler,
  InformationBannerOverlay,
  ToastOverlay,
  VideoModalOverlay,
} from '../overlays/connected';
import { ConnectionStatusOverlay } from '../realtime/ConnectionStatusOverlay';
import { SignInModal } from '../signIn/SignInModal';

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
      <SignInModal />
      <VideoModalOverlay />
      <ConnectionStatusOverlay />
    </>
  );
}
