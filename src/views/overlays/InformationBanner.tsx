import { useSelector } from '@xstate/react';
import { useCallback } from 'react';
import {
  selectBannerMessage,
  selectBannerType,
  selectBannerVisible,
} from '../../../machines/notifications/notifications.selectors';
import { MessageIcon } from './MessageIcon';
import type { NotificationsRef } from './refs';
import './overlays.css';

/** The bottom information banner (§2): plain text, a spinner for `load`; a click hides it. */
export function InformationBanner({ actor }: { actor: NotificationsRef }) {
  const visible = useSelector(actor, selectBannerVisible);
  const message = useSelector(actor, selectBannerMessage);
  const type = useSelector(actor, selectBannerType);
  const dismiss = useCallback(() => actor.send({ type: 'info.dismiss' }), [actor]);

  // The live region stays mounted so screen readers announce each new message.
  return (
    <div className="info-region" role="status" aria-live="polite">
      {visible ? (
        <div
          className={`info-banner info-banner--${type}`}
          data-testid="info-banner"
          onClick={dismiss}
        >
          {type === 'load' ? (
            <span className="spinner overlay-spinner" aria-hidden="true" />
          ) : (
            <MessageIcon type={type} />
          )}
          <span className="info-banner__message">{message}</span>
        </div>
      ) : null}
    </div>
  );
}
