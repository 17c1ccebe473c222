import { useSelector } from '@xstate/react';
import { useCallback, useRef, type MouseEvent } from 'react';
import {
  selectVideoAutoplay,
  selectVideoOpen,
  selectVideoSrc,
} from '../../../machines/notifications/notifications.selectors';
import type { NotificationsRef } from './refs';
import { useDialogFocus } from './useDialogFocus';
import './overlays.css';

/** The video modal (§2): plays the given source, optional autoplay; overlay click or × closes it. */
export function VideoModal({ actor }: { actor: NotificationsRef }) {
  const open = useSelector(actor, selectVideoOpen);
  const src = useSelector(actor, selectVideoSrc);
  const autoplay = useSelector(actor, selectVideoAutoplay);
  const dialog = useRef<HTMLDivElement>(null);
  const close = useCallback(() => actor.send({ type: 'video.close' }), [actor]);
  const onBackdrop = useCallback(
    (event: MouseEvent) => {
      if (event.target === event.currentTarget) close();
    },
    [close],
  );
  useDialogFocus(dialog, open, close);

  if (!open) return null;
  return (
    <div className="overlay-backdrop" data-testid="video-modal-backdrop" onClick={onBackdrop}>
      <div
        ref={dialog}
        className="video-modal"
        role="dialog"
        aria-modal="true"
        aria-label="Promo video"
        tabIndex={-1}
        data-testid="video-modal"
      >
        <button
          type="button"
          className="video-modal__close"
          aria-label="Close video"
          onClick={close}
        >
          ×
        </button>
        <video
          className="video-modal__video"
          src={src}
          controls
          playsInline
          autoPlay={autoplay}
          muted={autoplay}
          data-testid="video-player"
        />
      </div>
    </div>
  );
}
