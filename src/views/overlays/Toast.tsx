import { useSelector } from '@xstate/react';
import { useCallback, type MouseEvent } from 'react';
import {
  selectQueuedCount,
  selectToastHasLink,
  selectToastMessage,
  selectToastType,
  selectToastVisible,
} from '../../../machines/notifications/notifications.selectors';
import { sanitizeToastHtml } from '../../platform/sanitize';
import { MessageIcon } from './MessageIcon';
import type { NotificationsRef } from './refs';
import './overlays.css';

/**
 * The toast notification (§2): one at a time, HTML message (sanitised), a spinner for `load`,
 * a badge with the number of queued toasts that turns into a clear icon on hover or focus.
 * A click hides the toast (and follows its router_link when it has one); its own button does the
 * same from the keyboard.
 */
export function Toast({ actor }: { actor: NotificationsRef }) {
  const visible = useSelector(actor, selectToastVisible);
  const message = useSelector(actor, selectToastMessage);
  const type = useSelector(actor, selectToastType);
  const hasLink = useSelector(actor, selectToastHasLink);
  const queued = useSelector(actor, selectQueuedCount);

  const click = useCallback(
    () => actor.send({ type: hasLink ? 'notify.open' : 'notify.dismiss' }),
    [actor, hasLink],
  );
  const act = useCallback(
    (event: MouseEvent) => {
      event.stopPropagation();
      click();
    },
    [click],
  );
  const clear = useCallback(
    (event: MouseEvent) => {
      event.stopPropagation();
      actor.send({ type: 'notify.clear' });
    },
    [actor],
  );

  // The live region stays mounted so screen readers announce each new toast.
  return (
    <div className="toast-region" role="status" aria-live="polite">
      {visible ? (
        <div
          className={`toast toast--${type}${hasLink ? ' toast--link' : ''}`}
          data-testid="toast"
          onClick={click}
        >
          {type === 'load' ? (
            <span className="spinner overlay-spinner" aria-hidden="true" />
          ) : (
            <MessageIcon type={type} />
          )}
          <div
            className="toast__message"
            data-testid="toast-message"
            dangerouslySetInnerHTML={{ __html: sanitizeToastHtml(message) }}
          />
          <button
            type="button"
            className="toast__action"
            data-testid="toast-action"
            aria-label={hasLink ? 'Open notification' : 'Dismiss notification'}
            onClick={act}
          >
            <span aria-hidden="true">{hasLink ? 'Open' : '×'}</span>
          </button>
          {queued > 0 ? (
            <button
              type="button"
              className="toast__badge"
              data-testid="toast-badge"
              aria-label={`${queued} more queued. Clear all notifications`}
              onClick={clear}
            >
              <span className="toast__count" aria-hidden="true">
                {queued}
              </span>
              <span className="toast__clear" aria-hidden="true">
                ×
              </span>
            </button>
          ) : null}
        </div>
      ) : null}
    </div>
  );
}
