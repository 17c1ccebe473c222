import { useSelector } from '@xstate/react';
import { useCallback } from 'react';
import {
  selectVideoAutoplay,
  selectVideoOpen,
  selectVideoSrc,
} from '../../../machines/notifications/notifications.selectors';
import type { NotificationsRef } from './refs';
import { ModalFrame } from './ModalFrame';
import './overlays.css';
import { PROMO_POSTER_SRC, PROMO_VIDEO_SRC } from '../home/landing.content';

/**
 * Sound off until the player turns it on: `muted` on the element itself (its `muted` attribute,
 * which React's prop does not write), so the browser's own controls start with the sound off.
 */
function muteByDefault(video: HTMLVideoElement | null) {
  if (video) video.defaultMuted = true;
}

/** The video modal (§2): plays the given source, optional autoplay; overlay click or × closes it. */
export function VideoModal({ actor }: { actor: NotificationsRef }) {
  const open = useSelector(actor, selectVideoOpen);
  const src = useSelector(actor, selectVideoSrc);
  const autoplay = useSelector(actor, selectVideoAutoplay);
  const close = useCallback(() => actor.send({ type: 'video.close' }), [actor]);

  if (!open) return null;
  return (
    <ModalFrame
      onClose={close}
      backdropClassName="overlay-backdrop"
      backdropTestId="video-modal-backdrop"
      className="video-modal"
      testId="video-modal"
      label="Promo video"
    >
      <button type="button" className="video-modal__close" aria-label="Close video" onClick={close}>
        ×
      </button>
      <video
        className="video-modal__video"
        src={src}
        poster={src === PROMO_VIDEO_SRC ? PROMO_POSTER_SRC : undefined}
        controls
        playsInline
        autoPlay={autoplay}
        muted
        ref={muteByDefault}
        data-testid="video-player"
      />
    </ModalFrame>
  );
}
