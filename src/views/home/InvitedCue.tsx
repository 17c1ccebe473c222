import { useSelector } from '@xstate/react';
import { selectInvitedCode, selectWasInvited } from '../../../machines/signIn/invited.selectors';
import { SYSTEM_IDS } from '../../../machines/systemIds';
import { useService } from '../../app/hooks';
import { useHydrated } from '../common/useHydrated';
import './invited-cue.css';

/**
 * A visitor who came through a friend's invite link (/r/{code}) reads, beside Get Access, that a
 * friend invited them and that the code goes with their sign-in (§2 Routes, §5).
 */
export function InvitedCue() {
  const signIn = useService(SYSTEM_IDS.signIn);
  const invited = useSelector(signIn, selectWasInvited);
  const code = useSelector(signIn, selectInvitedCode);
  // The pre-rendered page has no cue: it appears once the page is live, never in hydration.
  const hydrated = useHydrated();
  if (!invited || !hydrated) return null;
  return (
    <p className="invited-cue" data-testid="invited-cue">
      <span className="invited-cue-mark" aria-hidden="true">
        ✦
      </span>{' '}
      A friend invited you. Their code <strong>{code}</strong> comes with your sign-in.
    </p>
  );
}
