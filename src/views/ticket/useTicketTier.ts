import { useSelector } from '@xstate/react';
import type { TicketTier } from '../../../contract/calendar';
import { selectTicketTier } from '../../../machines/auth/auth.selectors';
import { tierNow } from '../../../machines/launch/datedCopy';
import { selectPaidTier, type PaymentSnapshot } from '../../../machines/payment/payment.selectors';
import { SYSTEM_IDS } from '../../../machines/systemIds';
import { useMemberService, useService } from '../../app/hooks';
import { useDatedCopy } from '../common/useDatedCopy';

const selectPaidTierOf = (s: PaymentSnapshot | undefined) => (s ? selectPaidTier(s) : null);

/**
 * The tier of the player's ticket: the one this tab saw settled, else the server's word in the
 * user data, else the calendar's tier now (what a ticket bought now is).
 */
export function useTicketTier(): TicketTier {
  const auth = useService(SYSTEM_IDS.auth);
  const payment = useMemberService(SYSTEM_IDS.payment);
  const paid = useSelector(payment, selectPaidTierOf);
  const stored = useSelector(auth, selectTicketTier);
  const now = useDatedCopy(tierNow);
  return paid ?? stored ?? now;
}
