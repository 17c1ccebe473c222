import { useEffect } from 'react';
import { useLocation } from 'wouter';
import { SYSTEM_IDS } from '../../../machines/systemIds';
import { useService } from '../../app/hooks';
import { inviteCodeOfPathSegment, storeInviteCode } from '../../platform/inviteCode';

/**
 * /r/{code} and /ref/{code} (§2 Routes, §7 route-param commit): stores the sanitised code when it
 * is non-empty (no HTTP call), tells the sign-in service, then replaces the URL with Home. `code`
 * is the path segment as the address has it (percent-escaped).
 */
export function InviteCodeCapture({ code }: { code: string }) {
  const signIn = useService(SYSTEM_IDS.signIn);
  const [, navigate] = useLocation();
  useEffect(() => {
    const stored = storeInviteCode(inviteCodeOfPathSegment(code));
    if (stored) signIn.send({ type: 'inviteCode.stored', code: stored });
    navigate('/', { replace: true });
  }, [code, signIn, navigate]);
  return null;
}
