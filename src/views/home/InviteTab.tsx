import { useSelector } from '@xstate/react';
import type { ActorRefFrom } from 'xstate';
import {
  selectHasAccess,
  selectInviteCode,
  selectReferralClicks,
  selectReferralConfirmed,
  selectReferralRegistered,
} from '../../../machines/auth/auth.selectors';
import type { copyFeedbackMachine } from '../../../machines/copyFeedback/copyFeedback.machine';
import { selectIsCopied } from '../../../machines/copyFeedback/copyFeedback.selectors';
import { COPIED_LABEL } from '../../../machines/copyFeedback/copyFeedback.types';
import {
  selectCodesLoading,
  selectCopyFeedbackRef,
  selectIsSharing,
  selectUnusedCodeCount,
} from '../../../machines/home/home.selectors';
import { SYSTEM_IDS } from '../../../machines/systemIds';
import { FRIENDS_FOR_ACCESS } from '../../../contract/spec';
import { useService } from '../../app/hooks';
import { GameIcon } from '../common/GameIcon';
import { INVITE_SHARE_PERCENT } from './landing.content';
import './invite-tab.css';

/** The share button once the link is on the clipboard. */
const SHARE_COPIED_LABEL = 'Link copied!';

/** Friends' tickets needed for free entry (§4 Access flag, §9). */

type CopySnapshot = ReturnType<ActorRefFrom<typeof copyFeedbackMachine>['getSnapshot']>;
const selectCopied = (s: CopySnapshot | undefined) => (s ? selectIsCopied(s) : false);

/** The invite link of a code: site origin + /r/ + code (§2 Invite tab). */
function inviteLinkOf(origin: string, code: string): string {
  return `${origin}/r/${code}`;
}

/** The origin as shown on the page: without the scheme (the copied link keeps it). */
function hostOf(origin: string): string {
  return origin.replace(/^https?:\/\//, '');
}

function Counter({
  label,
  value,
  testId,
}: {
  label: string;
  value: number | string;
  testId: string;
}) {
  return (
    <div className="invite-counter">
      <dt>{label}</dt>
      <dd data-testid={testId}>{value}</dd>
    </div>
  );
}

/** The Invite tab (§2): link with copy and share, benefits, requirements or stats, counters. */
export function InviteTab() {
  const auth = useService(SYSTEM_IDS.auth);
  const home = useService(SYSTEM_IDS.home);
  const code = useSelector(auth, selectInviteCode);
  const hasAccess = useSelector(auth, selectHasAccess);
  const clicks = useSelector(auth, selectReferralClicks);
  const registered = useSelector(auth, selectReferralRegistered);
  const confirmed = useSelector(auth, selectReferralConfirmed);
  const copyFeedback = useSelector(home, selectCopyFeedbackRef);
  const copied = useSelector(copyFeedback, selectCopied);
  const sharing = useSelector(home, selectIsSharing);
  const codesLoading = useSelector(home, selectCodesLoading);
  const unusedCodes = useSelector(home, selectUnusedCodeCount);

  const link = inviteLinkOf(window.location.origin, code);
  const friendsTowardAccess = Math.min(confirmed, FRIENDS_FOR_ACCESS);

  return (
    <section className="invite" aria-labelledby="invite-title">
      <h2 id="invite-title" className="invite-title">
        Invite friends
      </h2>

      <div className="invite-link-box">
        <span className="invite-label" id="invite-link-label">
          Your invite link
        </span>
        <div className="invite-link-row">
          {/* The link as a player reads it: the host may shorten, the /r/CODE end never does. */}
          <output
            id="invite-link"
            className="invite-link-field"
            data-testid="invite-link"
            data-link={link}
            title={link}
            aria-label={link}
          >
            <span className="invite-link-host">{hostOf(window.location.origin)}</span>
            <span className="invite-link-path">/r/{code}</span>
          </output>
          <button
            type="button"
            className="btn btn-small invite-copy"
            onClick={() => home.send({ type: 'invite.copyLink', url: link })}
          >
            <span aria-live="polite">{copied ? COPIED_LABEL : 'Copy'}</span>
          </button>
        </div>
        <p className="invite-code-line">
          Your invite code{' '}
          <strong className="invite-code" data-testid="invite-code">
            {code}
          </strong>
        </p>
        <p className="invite-codes-note" aria-busy={codesLoading}>
          {codesLoading
            ? 'Loading invitation codes…'
            : `Invitation codes available: ${unusedCodes}`}
        </p>
      </div>

      <div className="invite-grid">
        <div className="invite-card">
          <h3>Referral Benefits</h3>
          <ul className="invite-benefits bullets">
            <li>Free entry when {FRIENDS_FOR_ACCESS} friends buy tickets</li>
            <li>+1 Gangster for each invited friend who buys a ticket</li>
            <li>{INVITE_SHARE_PERCENT}% of the $GNG your friends spend in the game</li>
          </ul>
        </div>

        {/* One block for the link's figures: what access still needs, or the stats once in. */}
        <div
          className="invite-card"
          data-testid={hasAccess ? 'invite-stats' : 'invite-requirements'}
        >
          <h3>
            {hasAccess ? 'Stats' : `Get access when ${FRIENDS_FOR_ACCESS} friends buy tickets`}
          </h3>
          {!hasAccess && (
            <progress
              className="invite-goal-bar"
              max={FRIENDS_FOR_ACCESS}
              value={friendsTowardAccess}
              aria-label="Tickets bought by friends"
            />
          )}
          <dl className="invite-counters" aria-label="Invite link activity">
            <Counter
              label={hasAccess ? 'Tickets purchased' : 'Tickets bought by friends'}
              value={hasAccess ? confirmed : `${friendsTowardAccess}/${FRIENDS_FOR_ACCESS}`}
              testId="counter-confirmed"
            />
            <Counter
              label="Registered via the link"
              value={registered}
              testId="counter-registered"
            />
            <Counter label="Clicks" value={clicks} testId="counter-clicks" />
          </dl>
        </div>
      </div>

      <div className="invite-share-card" aria-labelledby="share-card-title">
        <div className="invite-share-art" aria-hidden="true">
          <GameIcon name="gangster" size={56} />
        </div>
        <div className="invite-share-body">
          <p className="invite-share-kicker">Solana Mafia Wars</p>
          <h3 id="share-card-title">Join my crew</h3>
          <p className="invite-share-text">
            Friends who open your link sign up with your code already filled in.
          </p>
          <button
            type="button"
            className="btn btn-primary invite-share"
            disabled={sharing}
            onClick={() => home.send({ type: 'invite.share', url: link })}
          >
            {/* Where there is no share sheet (a desktop) sharing copies the link: the button the
                player pressed says so, not only the Copy button further up. */}
            <span aria-live="polite">{copied ? SHARE_COPIED_LABEL : 'Share Invite Link'}</span>
          </button>
        </div>
      </div>
    </section>
  );
}
