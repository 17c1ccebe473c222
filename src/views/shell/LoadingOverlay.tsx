import { MESSAGES } from '../../../contract/messages';
import { useAppSelector } from '../../app/hooks';
import {
  selectErrorText,
  selectHasError,
  selectShowLoader,
} from '../../../machines/app/app.selectors';
import { reloadPage } from '../../platform/location';
import { Logo } from './Logo';
import './loading-overlay.css';
// The sign-in dialog's frame, drawn by the page for a tap held before the app runs.
import '../signIn/signInFrame.css';

/**
 * The app loader (§2): full screen with the logo and `Loading` until the session has loaded;
 * with an application error it is the Connection Error view with a Reload Page button.
 */
export function LoadingOverlay() {
  const show = useAppSelector(selectShowLoader);
  const hasError = useAppSelector(selectHasError);
  const errorText = useAppSelector(selectErrorText);
  if (!show) return null;
  if (hasError) {
    return (
      <div
        className="loading-overlay loading-overlay--error"
        role="alertdialog"
        aria-modal="true"
        aria-labelledby="connection-error-title"
        aria-describedby="connection-error-text"
      >
        <Logo />
        <h1 id="connection-error-title" className="loading-overlay__title">
          Connection Error
        </h1>
        <p id="connection-error-text" className="loading-overlay__text">
          {errorText || MESSAGES.connect}
        </p>
        <button type="button" className="loading-overlay__button" onClick={reloadPage}>
          Reload Page
        </button>
      </div>
    );
  }
  // The shell's first element (Shell.tsx): a frame drawn while the page is still being read
  // shows the loader over whatever part of it has arrived.
  return (
    <div className="loading-overlay" role="status" aria-live="polite" aria-busy="true">
      <Logo />
      <p className="loading-overlay__text">Loading</p>
      <span className="loading-overlay__spinner" aria-hidden="true" />
    </div>
  );
}
