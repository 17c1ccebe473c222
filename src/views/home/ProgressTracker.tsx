import { useSelector } from '@xstate/react';
import { FRIENDS_FOR_ACCESS } from '../../../contract/spec';
import {
  selectAccessByFriends,
  selectHasAccess,
  selectReferralConfirmed,
} from '../../../machines/auth/auth.selectors';
import { SYSTEM_IDS } from '../../../machines/systemIds';
import { useService } from '../../app/hooks';
import { GameIcon } from '../common/GameIcon';

/**
 * The two ways in, side by side above both tabs: the ticket, and friends who bought theirs
 * (n/2). It follows the user data, so it moves as soon as the server says something changed.
 */
export function ProgressTracker() {
  const auth = useService(SYSTEM_IDS.auth);
  const hasAccess = useSelector(auth, selectHasAccess);
  const byFriends = useSelector(auth, selectAccessByFriends);
  const confirmed = useSelector(auth, selectReferralConfirmed);
  const friends = Math.min(confirmed, FRIENDS_FOR_ACCESS);
  const ticketDone = hasAccess && !byFriends;
  const friendsDone = friends >= FRIENDS_FOR_ACCESS;
  return (
    <section className="progress" aria-label="Your way in" data-testid="progress-tracker">
      <div className={`progress-step${ticketDone ? ' progress-step--done' : ''}`}>
        <GameIcon name="ticket" size={30} />
        <div>
          <p className="progress-label">Ticket</p>
          <p className="progress-value" data-testid="progress-ticket">
            {ticketDone ? 'Issued' : hasAccess ? 'Not needed' : 'Not bought yet'}
          </p>
        </div>
      </div>
      <p className="progress-or" aria-hidden="true">
        or
      </p>
      <div className={`progress-step${friendsDone ? ' progress-step--done' : ''}`}>
        <GameIcon name="friends" size={30} />
        <div>
          <p className="progress-label">Friends who bought</p>
          <p className="progress-value" data-testid="progress-friends">
            {friends}/{FRIENDS_FOR_ACCESS}
          </p>
          <div
            className="progress-bar"
            role="progressbar"
            aria-label="Friends who bought a ticket"
            aria-valuemin={0}
            aria-valuemax={FRIENDS_FOR_ACCESS}
            aria-valuenow={friends}
          >
            <span style={{ width: `${(friends / FRIENDS_FOR_ACCESS) * 100}%` }} />
          </div>
        </div>
      </div>
    </section>
  );
}
