import { useSelector } from '@xstate/react';
import { useId } from 'react';
import { selectHouseInviteCode } from '../../../machines/auth/invitation.selectors';
import {
  selectCodeNotice,
  selectIsSubmitting,
  selectTypedCode,
} from '../../../machines/invitation/invitation.selectors';
import { SYSTEM_IDS } from '../../../machines/systemIds';
import { PaymentPending } from './PaymentPending';
import { useMemberService, useService } from '../../app/hooks';

type InvitationRef = NonNullable<ReturnType<typeof useMemberService<'invitation'>>>;

/**
 * §2 bonus box: "invitation via ref is required to enter after Nov 20". A signed-in player
 * without an inviter names one by a friend's invite code before the ticket is offered; in a
 * local build the server's house code is offered as a development tool.
 */
export function InvitationPanel() {
  const invitation = useMemberService(SYSTEM_IDS.invitation);
  if (!invitation) return <PaymentPending />;
  return <InvitationForm invitation={invitation} />;
}

function InvitationForm({ invitation }: { invitation: InvitationRef }) {
  const auth = useService(SYSTEM_IDS.auth);
  const typed = useSelector(invitation, selectTypedCode);
  const notice = useSelector(invitation, selectCodeNotice);
  const busy = useSelector(invitation, selectIsSubmitting);
  const house = useSelector(auth, selectHouseInviteCode);
  const inputId = useId();
  const noticeId = useId();
  const use = (code: string) => {
    invitation.send({ type: 'invitation.codeChanged', code });
    invitation.send({ type: 'invitation.submit' });
  };
  return (
    <div className="ticket-pay ticket-invitation" data-testid="invitation-panel">
      <h2>An invitation via ref is required to enter</h2>
      <p className="ticket-muted">
        Open the invite link a friend sent you, or enter their invite code: your ticket is offered
        once a friend has invited you.
      </p>
      <form
        className="ticket-invitation-form"
        onSubmit={(event) => {
          event.preventDefault();
          invitation.send({ type: 'invitation.submit' });
        }}
      >
        <label className="ticket-label" htmlFor={inputId}>
          Friend&apos;s invite code
        </label>
        <div className="ticket-row">
          <input
            id={inputId}
            className="ticket-code-input"
            value={typed}
            autoComplete="off"
            autoCapitalize="characters"
            spellCheck={false}
            maxLength={64}
            aria-invalid={notice ? true : undefined}
            aria-describedby={notice ? noticeId : undefined}
            onChange={(event) =>
              invitation.send({ type: 'invitation.codeChanged', code: event.target.value })
            }
          />
          <button type="submit" className="ticket-primary" disabled={busy} aria-busy={busy}>
            {busy ? 'Checking...' : 'Use invite code'}
          </button>
        </div>
        {notice ? (
          <p id={noticeId} className="ticket-invitation-notice" role="alert">
            {notice}
          </p>
        ) : null}
      </form>
      {house && (
        <div className="ticket-devtool" data-testid="house-invitation">
          <span className="ticket-devtool-tag">Development tool · local build only</span>
          <button
            type="button"
            className="ticket-primary"
            disabled={busy}
            onClick={() => use(house)}
          >
            Use the local server&apos;s house invite code {house}
          </button>
        </div>
      )}
    </div>
  );
}
