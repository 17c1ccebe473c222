import { useEffect } from 'react';
import { useLocation } from 'wouter';
import { inviteCodeOfPathSegment, offerLinkCode } from '../../platform/inviteCode';

/**
 * /r/{code} and /ref/{code} (§2 Routes): offers the code to the invitation service, which checks
 * it and stores it only when it belongs to a player (machines/invitation), then replaces the URL
 * with Home. `code` is the path segment as the address has it (percent-escaped).
 */
export function InviteCodeCapture({ code }: { code: string }) {
  const [, navigate] = useLocation();
  useEffect(() => {
    offerLinkCode(inviteCodeOfPathSegment(code));
    navigate('/', { replace: true });
  }, [code, navigate]);
  return null;
}
