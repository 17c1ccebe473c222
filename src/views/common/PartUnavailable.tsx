import { useSelector } from '@xstate/react';
import { useEffect, useId, useRef, useSyncExternalStore, type ReactNode } from 'react';
import { selectHasJwt } from '../../../machines/auth/auth.selectors';
import { SYSTEM_IDS } from '../../../machines/systemIds';
import { useService } from '../../app/hooks';
import { SESSION_MESSAGES } from '../../../contract/messages';
import {
  partsState,
  reloadForUpdate,
  retryNow,
  showPageStandIn,
  subscribeChunkFailures,
  type PartsState,
} from '../../platform/chunkRetry';
import './chunkRetry.css';

/** The update offer's words (issue 52): one line, one Reload button. */
export const UPDATE_TITLE = 'A new version of the site is ready';
const UPDATE_NOTE = 'Reload to use it.';
const UPDATE_NOTE_SIGNED_IN = 'Reload to use it. You stay signed in.';
const AUTO_RETRY_NOTE = 'It loads by itself as soon as the server answers.';

/** What the page knows about its parts, for the cards and the corner notice. */
export const usePartsState = (): PartsState =>
  useSyncExternalStore(subscribeChunkFailures, partsState, () => 'ok');

type Variant = 'page' | 'dialog' | 'panel';

/**
 * The styled card a part shows in its own place when its file cannot load: a page (docs, the
 * signed-in home), a dialog (sign-in, the trailer) or a panel (a guide's article, the QR code).
 * It says which case the page is in: asking the server (busy), the server does not answer (the
 * spec's connection message, Retry, and it comes back by itself), or a new release replaced the
 * part (the update offer with one Reload button). While it shows, the corner notice steps aside.
 */
export function PartUnavailable({
  variant,
  title,
  onClose,
}: {
  variant: Variant;
  /** What could not load, e.g. "This guide could not load". */
  title: string;
  /** A dialog's close gesture (its backdrop, Escape and the × button). */
  onClose?: () => void;
}) {
  const state = usePartsState();
  const titleId = useId();
  useEffect(() => showPageStandIn(), []);
  // Asking the server which case it is (a moment), or loading again: no card yet.
  if (state !== 'outage' && state !== 'replaced') return null;
  const card = <PartCard state={state} title={title} titleId={titleId} headingLevel={variant} />;
  if (variant === 'dialog') return <PartDialog titleId={titleId} onClose={onClose} card={card} />;
  if (variant === 'page') return <main className="chunk-failed">{card}</main>;
  return <div className="part-panel">{card}</div>;
}

function PartCard({
  state,
  title,
  titleId,
  headingLevel,
}: {
  state: 'outage' | 'replaced';
  title: string;
  titleId: string;
  headingLevel: Variant;
}) {
  // The sign-in is stored: a reload keeps it (the shell checks only the jwt, §4).
  const signedIn = useSelector(useService(SYSTEM_IDS.auth), selectHasJwt);
  const Heading = headingLevel === 'page' ? 'h1' : 'h2';
  // Inside a dialog the frame is the card; elsewhere the card is drawn here.
  const Frame = headingLevel === 'dialog' ? 'div' : 'section';
  const frameClass = headingLevel === 'dialog' ? 'part-card__body' : 'chunk-failed__card';
  const replaced = state === 'replaced';
  return (
    <Frame className={frameClass} role="alert" data-part-state={state}>
      <Heading id={titleId} className="chunk-failed__title">
        {replaced ? UPDATE_TITLE : title}
      </Heading>
      <p>
        {replaced ? (signedIn ? UPDATE_NOTE_SIGNED_IN : UPDATE_NOTE) : SESSION_MESSAGES.connect}
      </p>
      {!replaced && <p className="part-note">{AUTO_RETRY_NOTE}</p>}
      <PartButton replaced={replaced} />
    </Frame>
  );
}

/**
 * A dialog's card: a backdrop that closes it when pressed, Escape too, focus on its button. Kept
 * small (it is in the first load, for when the dialog's own code cannot come), so not the modal
 * frame of the dialogs.
 */
function PartDialog({
  titleId,
  onClose,
  card,
}: {
  titleId: string;
  onClose: (() => void) | undefined;
  card: ReactNode;
}) {
  const dialog = useRef<HTMLDivElement>(null);
  useEffect(() => {
    dialog.current?.querySelector<HTMLElement>('.btn')?.focus();
  });
  return (
    <div
      className="part-backdrop"
      onMouseDown={(event) => {
        if (event.target === event.currentTarget) onClose?.();
      }}
    >
      <div
        ref={dialog}
        className="chunk-failed__card part-dialog"
        role="dialog"
        aria-modal="true"
        aria-labelledby={titleId}
        onKeyDown={(event) => {
          if (event.key === 'Escape') onClose?.();
        }}
      >
        {onClose ? (
          <button className="part-close" type="button" aria-label="Close" onClick={onClose}>
            <span aria-hidden="true">×</span>
          </button>
        ) : null}
        {card}
      </div>
    </div>
  );
}

/** The one button of a part's card and of the corner notice: Reload for a new release, else Retry. */
export const PartButton = ({ replaced }: { replaced: boolean }) => (
  <button type="button" className="btn btn-primary" onClick={replaced ? reloadForUpdate : retryNow}>
    {replaced ? 'Reload' : 'Retry'}
  </button>
);
