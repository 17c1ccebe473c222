import { useSelector } from '@xstate/react';
import { useCallback, useId } from 'react';
import {
  selectCopyFailed,
  selectIsCopied,
} from '../../../machines/copyFeedback/copyFeedback.selectors';
import { COPIED_LABEL } from '../../../machines/copyFeedback/copyFeedback.types';
import {
  selectCopyFeedbackRef,
  selectErrorComponent,
  selectErrorFile,
  selectErrorMessage,
  selectErrorModalOpen,
  selectErrorSolution,
  selectErrorStack,
  selectErrorTime,
} from '../../../machines/errorModal/errorModal.selectors';
import { phantomAppLink } from '../../app/phantomAppLink';
import type { CopyFeedbackRef, ErrorModalRef } from './refs';
import { ModalFrame } from './ModalFrame';
import './overlays.css';

/** §8's "<Wallet> wallet not detected". */
const WALLET_MISSING = / wallet not detected$/;

function CopyDetailsButton({
  feedback,
  onCopy,
}: {
  feedback: CopyFeedbackRef;
  onCopy: () => void;
}) {
  const copied = useSelector(feedback, selectIsCopied);
  const failed = useSelector(feedback, selectCopyFailed);
  return (
    <>
      <button
        type="button"
        className="overlay-button"
        onClick={onCopy}
        data-testid="copy-error-details"
      >
        {copied ? COPIED_LABEL : 'Copy Error Details'}
      </button>
      {failed ? (
        <span className="error-modal__copy-failed" role="alert">
          Could not copy to the clipboard.
        </span>
      ) : null}
    </>
  );
}

/** The Error Detected modal (§2). Close, a backdrop click or Escape closes it; focus stays inside. */
export function ErrorModal({ actor }: { actor: ErrorModalRef }) {
  const open = useSelector(actor, selectErrorModalOpen);
  const message = useSelector(actor, selectErrorMessage);
  const solution = useSelector(actor, selectErrorSolution);
  const component = useSelector(actor, selectErrorComponent);
  const file = useSelector(actor, selectErrorFile);
  const stack = useSelector(actor, selectErrorStack);
  const time = useSelector(actor, selectErrorTime);
  const feedback = useSelector(actor, selectCopyFeedbackRef);

  const titleId = useId();
  const close = useCallback(() => actor.send({ type: 'errorModal.close' }), [actor]);
  const copy = useCallback(() => actor.send({ type: 'errorModal.copyDetails' }), [actor]);

  if (!open) return null;
  // On a phone there is no extension to install: the spec's link that opens the site inside the
  // Phantom app leads, the install solution follows (null off phones and where a wallet exists).
  const appLink = WALLET_MISSING.test(message) ? phantomAppLink() : null;
  return (
    <ModalFrame
      onClose={close}
      backdropClassName="overlay-backdrop"
      backdropTestId="error-modal-backdrop"
      className="overlay-dialog error-modal"
      testId="error-modal"
      labelledBy={titleId}
    >
      <h2 id={titleId} className="overlay-dialog__title">
        Error Detected
      </h2>
      <p className="error-modal__message" data-testid="error-message">
        {message}
      </p>
      {appLink ? (
        <a
          className="overlay-button overlay-button--primary error-modal__app-link"
          href={appLink}
          data-testid="error-app-link"
        >
          Open in the Phantom app
        </a>
      ) : null}
      {solution ? (
        <p className="error-modal__solution" data-testid="error-solution">
          <strong>Suggested solution:</strong> {solution}
        </p>
      ) : null}
      {/* §2: the component and file (unless unknown), the time and a long stack trace are
          shown, after what the player reads first (the message and the solution), behind one
          disclosure: they are for whoever the player reports the error to. All of them are in
          the copied summary. */}
      <details className="error-modal__details" data-testid="error-details">
        <summary>Technical details</summary>
        <dl className="error-modal__facts">
          {component ? (
            <div>
              <dt>Component</dt>
              <dd data-testid="error-component">{component}</dd>
            </div>
          ) : null}
          {file ? (
            <div>
              <dt>File</dt>
              <dd data-testid="error-file">{file}</dd>
            </div>
          ) : null}
          <div>
            <dt>Time</dt>
            <dd>
              <time dateTime={time} data-testid="error-time">
                {time}
              </time>
            </dd>
          </div>
        </dl>
        {stack ? (
          <details className="error-modal__stack">
            <summary>Stack trace</summary>
            <pre tabIndex={0}>{stack}</pre>
          </details>
        ) : null}
      </details>
      <div className="overlay-dialog__actions">
        {feedback ? <CopyDetailsButton feedback={feedback} onCopy={copy} /> : null}
        <button type="button" className="overlay-button overlay-button--primary" onClick={close}>
          Close
        </button>
      </div>
    </ModalFrame>
  );
}
