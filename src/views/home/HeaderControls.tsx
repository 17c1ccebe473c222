import { useSelector } from '@xstate/react';
import { selectEmail, selectIsSignedIn } from '../../../machines/auth/auth.selectors';
import { SYSTEM_IDS } from '../../../machines/systemIds';
import { useService } from '../../app/hooks';
import { useHydrated } from '../common/useHydrated';
import { ThemeToggle } from '../overlays/ThemeToggle';

/** Right side of the top bar: the theme control, and the e-mail with Exit when signed in. */
export function HeaderControls() {
  const auth = useService(SYSTEM_IDS.auth);
  const theme = useService(SYSTEM_IDS.theme);
  const signedIn = useSelector(auth, selectIsSignedIn);
  const email = useSelector(auth, selectEmail);
  // The stored theme and sign-in are unknown at build time: the pre-rendered page (a signed-out
  // visitor's) keeps the control's place, and a stored sign-in shows once hydration is done.
  const hydrated = useHydrated();
  return (
    <>
      {hydrated ? (
        <ThemeToggle actor={theme} />
      ) : (
        <span
          className="theme-toggle theme-toggle-placeholder"
          aria-hidden="true"
          data-tap="theme"
        />
      )}
      {hydrated && signedIn && (
        <>
          <span className="header-email" data-testid="user-email" title={email}>
            {email}
          </span>
          <button
            type="button"
            className="btn btn-ghost btn-small"
            onClick={() => auth.send({ type: 'auth.logout' })}
          >
            Exit
          </button>
        </>
      )}
    </>
  );
}
