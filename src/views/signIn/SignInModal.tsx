import { useSelector } from '@xstate/react';
import { useCallback, useEffect, useId, useRef } from 'react';
import { selectHasJwt } from '../../../machines/auth/auth.selectors';
import {
  selectEmail,
  selectInviteCodeShown,
  selectIsOpen,
  selectNoticeText,
  selectStep,
  type SignInSnapshot,
} from '../../../machines/signIn/signIn.selectors';
import { selectUnknownLinkNotice } from '../../../machines/invitation/invitation.selectors';
import { SYSTEM_IDS } from '../../../machines/systemIds';
import { useMemberService, useService } from '../../app/hooks';
import { ModalFrame } from '../overlays/ModalFrame';
import { CodeStep } from './CodeStep';
import { EmailStep } from './EmailStep';
import { focusHomeAfterSignIn } from './focusHomeAfterSignIn';
import type { SignInRef } from './refs';
import { TelegramStep } from './TelegramStep';
import './signInFrame.css';
import './signIn.css';

/** What a screen reader hears when a step opens: its title and what it asks for. */
const selectStepAnnouncement = (s: SignInSnapshot): string => {
  switch (selectStep(s)) {
    case 'email':
      return 'Sign In. Log in or register your account.';
    case 'code':
      return `Verify E-mail. A 6-digit code was sent to ${selectEmail(s).trim()}.`;
    case 'telegram':
      return 'Telegram. Open Telegram or go back to e-mail.';
    default:
      return '';
  }
};

/**
 * The sign-in dialog (§2 Sign-in modal): focus trapped while open, Escape closes, the current
 * step's first field focused on each step, one live region for steps and messages.
 */
export function SignInDialog({
  signIn,
  unknownInviteCode = null,
}: {
  signIn: SignInRef;
  /** What is said of an invite link whose code belongs to nobody (never stored), or null. */
  unknownInviteCode?: string | null;
}) {
  const step = useSelector(signIn, selectStep);
  const notice = useSelector(signIn, selectNoticeText);
  const inviteCode = useSelector(signIn, selectInviteCodeShown);
  const announcement = useSelector(signIn, selectStepAnnouncement);
  const dialog = useRef<HTMLDivElement>(null);
  const titleId = useId();
  const noticeId = useId();

  // The frame moves focus into the dialog, keeps it there, closes on Escape and gives focus back
  // (the Get Access button) on close; each step then focuses its first field.
  useEffect(() => {
    const node = dialog.current;
    if (!node) return;
    const target = node.querySelector<HTMLElement>('[data-autofocus]') ?? node;
    target.focus();
  }, [step]);

  const close = useCallback(() => signIn.send({ type: 'signIn.close' }), [signIn]);

  return (
    <ModalFrame
      onClose={close}
      closeOn="mousedown"
      backdropClassName="signin-backdrop"
      className="signin-dialog"
      labelledBy={titleId}
      describedBy={notice ? noticeId : undefined}
      dialogRef={dialog}
    >
      <button className="signin-close" type="button" aria-label="Close" onClick={close}>
        <span aria-hidden="true">×</span>
      </button>
      {step === 'email' ? <EmailStep signIn={signIn} titleId={titleId} /> : null}
      {step === 'code' ? <CodeStep signIn={signIn} titleId={titleId} /> : null}
      {step === 'telegram' ? <TelegramStep signIn={signIn} titleId={titleId} /> : null}
      {notice ? (
        <p id={noticeId} className="signin-notice">
          {notice}
        </p>
      ) : null}
      {inviteCode ? (
        <p className="signin-invite">
          Invite code: <strong>{inviteCode}</strong>
        </p>
      ) : unknownInviteCode ? (
        <p className="signin-invite signin-invite-unknown" data-testid="unknown-invite-code">
          {unknownInviteCode}
        </p>
      ) : null}
      <p className="signin-terms">
        By continuing, you agree to our{' '}
        <a href="/docs/terms" target="_blank" rel="noopener">
          Terms of Service
        </a>{' '}
        and{' '}
        <a href="/docs/privacy" target="_blank" rel="noopener">
          Privacy Policy
        </a>
        .
      </p>
      <div className="visually-hidden" aria-live="polite" aria-atomic="true">
        {notice ?? announcement}
      </div>
    </ModalFrame>
  );
}

/** The dialog while the sign-in service is open and nobody is signed in. */
export function SignInModalView({
  signIn,
  hasJwt,
  unknownInviteCode = null,
}: {
  signIn: SignInRef;
  hasJwt: boolean;
  unknownInviteCode?: string | null;
}) {
  const open = useSelector(signIn, selectIsOpen);
  if (hasJwt || !open) return null;
  return <SignInDialog signIn={signIn} unknownInviteCode={unknownInviteCode} />;
}

/** What the invitation service says of the last invite link when its code belongs to nobody. */
function useUnknownInviteCode(): string | null {
  const invitation = useMemberService(SYSTEM_IDS.invitation);
  return useSelector(invitation, (s) => (s ? selectUnknownLinkNotice(s) : null));
}

/** The overlay slot's entry (§2 Shell): shown only while signed out (the shell checks the jwt). */
export function SignInModal() {
  const auth = useService(SYSTEM_IDS.auth);
  const signIn = useService(SYSTEM_IDS.signIn);
  const hasJwt = useSelector(auth, selectHasJwt);
  // Closed by a sign-in (the shell removes the dialog once there is a jwt): focus goes on to
  // the signed-in home's heading.
  useEffect(
    () => () => {
      if (selectHasJwt(auth.getSnapshot())) focusHomeAfterSignIn();
    },
    [auth],
  );
  const unknownInviteCode = useUnknownInviteCode();
  return <SignInModalView signIn={signIn} hasJwt={hasJwt} unknownInviteCode={unknownInviteCode} />;
}
